// Shell quoting for command lines the page builds or shows (`cat <path>`, a trace's argv).

/** `arg` as one shell word: bare when it is safe, else in single quotes. */
export function shellQuote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}
