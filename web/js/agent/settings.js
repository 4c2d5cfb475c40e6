// The agent page's settings (endpoint, model, API key): kept in this tab's sessionStorage only.

const KEY = "onetool-agent.settings";
const FIELDS = ["endpoint", "model", "apiKey"];

export function loadSettings(storage = sessionStorage) {
  try {
    const saved = JSON.parse(storage.getItem(KEY) || "{}");
    return Object.fromEntries(FIELDS.map((name) => [name, typeof saved[name] === "string" ? saved[name] : ""]));
  } catch {
    return { endpoint: "", model: "", apiKey: "" };
  }
}

export function saveSettings(settings, storage = sessionStorage) {
  storage.setItem(KEY, JSON.stringify(Object.fromEntries(FIELDS.map((name) => [name, settings[name] ?? ""]))));
}

export function clearSettings(storage = sessionStorage) {
  storage.removeItem(KEY);
}

/** Bind a form whose inputs are named endpoint, model, apiKey: fill it, save on every change. */
export function bindSettingsForm(form, storage = sessionStorage) {
  const saved = loadSettings(storage);
  for (const name of FIELDS) form.elements[name].value = saved[name];
  const read = () => Object.fromEntries(FIELDS.map((name) => [name, form.elements[name].value.trim()]));
  form.addEventListener("input", () => saveSettings(read(), storage));
  return read;
}
