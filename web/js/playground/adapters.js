// Search and fetch adapters over a world's data, in JavaScript: the page answers, Python awaits.
// They rank and shape results like onetool_wasm.testing.adapters (DemoSearch, DemoFetch).

const SNIPPET_CHARS = 160;

function tokens(text) {
  return new Set(String(text).toLowerCase().match(/[a-z0-9_]+/g) || []);
}

function snippet(body) {
  const text = String(body).split(/\s+/).filter(Boolean).join(" ");
  return text.length <= SNIPPET_CHARS ? text : `${text.slice(0, SNIPPET_CHARS - 3)}...`;
}

/** Documents ranked by how many query words they contain, then by title. */
export function createSearch(docs) {
  return async function search(query, limit = 10) {
    const wanted = tokens(query);
    const scored = [];
    for (const doc of docs) {
      const words = tokens(`${doc.title}\n${doc.body}`);
      const overlap = [...wanted].filter((word) => words.has(word)).length;
      if (overlap) scored.push({ overlap, doc });
    }
    scored.sort((a, b) => b.overlap - a.overlap || (a.doc.title < b.doc.title ? -1 : a.doc.title > b.doc.title ? 1 : 0));
    return scored.slice(0, limit).map(({ doc }) => ({
      title: doc.title,
      snippet: snippet(doc.body),
      source: doc.source || "",
    }));
  };
}

/** Fixed resources: strings are text/plain, anything else JSON; unknown names fail. */
export function createFetch(resources) {
  return async function fetchResource(resource) {
    if (!Object.hasOwn(resources, resource)) throw new Error(`resource not found: ${resource}`);
    const payload = structuredClone(resources[resource]);
    if (typeof payload === "string") return { contentType: "text/plain", payload };
    return { contentType: "application/json", payload };
  };
}

/** The adapters of a world; a world without docs or resources gets none of that kind. */
export function worldAdapters(world) {
  const adapters = {};
  if (world.searchDocs) adapters.search = createSearch(world.searchDocs);
  if (world.fetchResources) adapters.fetch = createFetch(world.fetchResources);
  return adapters;
}
