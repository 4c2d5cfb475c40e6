// wire.js — values between the worker's JavaScript and Python: {json, buffers}.
//
// The JSON text of a value, with each byte array replaced by {"__onetool_bytes__": i}, and
// the byte arrays beside it (Uint8Array), so bytes cross without base64 and `null` stays
// null. The Python half is onetool_wasm/browser/wire.py.

const BYTES_KEY = "__onetool_bytes__";

export function encode(value) {
  const buffers = [];
  const json = JSON.stringify(value === undefined ? null : value, (key, item) => {
    const bytes = asBytes(item);
    if (!bytes) return item;
    buffers.push(bytes);
    return { [BYTES_KEY]: buffers.length - 1 };
  });
  return { json, buffers };
}

export function decode({ json, buffers = [] }) {
  if (!json) return null;
  return JSON.parse(json, (key, item) => {
    if (item && typeof item === "object" && !Array.isArray(item)) {
      const keys = Object.keys(item);
      if (keys.length === 1 && keys[0] === BYTES_KEY) return toUint8Array(buffers[item[BYTES_KEY]]);
    }
    return item;
  });
}

function asBytes(item) {
  if (item instanceof Uint8Array) return item;
  if (item instanceof ArrayBuffer) return new Uint8Array(item);
  if (ArrayBuffer.isView(item) && !(item instanceof DataView)) {
    return new Uint8Array(item.buffer, item.byteOffset, item.byteLength);
  }
  return null;
}

function toUint8Array(buffer) {
  return buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer ?? 0);
}
