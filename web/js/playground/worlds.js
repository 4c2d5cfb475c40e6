// Example worlds: JSON files under worlds/ with files, search docs, fetch resources, the JS
// providers they use, and example command lines. This module loads and converts them.

import { worldAdapters } from "./adapters.js";
import { PROVIDER_FACTORIES } from "./petstore.js";

export const WORLDS = [
  { id: "demo", title: "Demo" },
  { id: "logs", title: "Log analysis" },
  { id: "petstore", title: "Pet store API" },
];

const BASE = new URL("../../worlds/", import.meta.url);

/** The world's JSON (`{title, description, files, searchDocs, fetchResources, providers, examples}`). */
export async function fetchWorld(id) {
  if (!WORLDS.some((world) => world.id === id)) throw new Error(`unknown world: ${id}`);
  const response = await fetch(new URL(`${id}.json`, BASE));
  if (!response.ok) throw new Error(`world ${id}: HTTP ${response.status}`);
  return { id, ...(await response.json()) };
}

function decodeBase64(text) {
  const binary = atob(text);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** World files ({"/a.txt": {"text": ...} | {"b64": ...} | "text"}) as createOneTool's `files`. */
export function worldFiles(world) {
  const files = {};
  for (const [path, content] of Object.entries(world.files || {})) {
    if (typeof content === "string") files[path] = content;
    else if (content?.b64 != null) files[path] = decodeBase64(content.b64);
    else files[path] = content?.text ?? "";
  }
  return files;
}

/** Fresh providers for the names a world lists (each world load starts from the seed data). */
export function worldProviders(world) {
  return (world.providers || []).map((name) => {
    const factory = PROVIDER_FACTORIES[name];
    if (!factory) throw new Error(`world ${world.id}: unknown provider ${name}`);
    return factory();
  });
}

/** Everything createOneTool needs from a world, besides storage and the page's callbacks. */
export function worldOptions(world) {
  return { files: worldFiles(world), adapters: worldAdapters(world), providers: worldProviders(world) };
}
