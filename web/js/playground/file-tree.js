// The file tree: the VFS as the runtime itself reports it, through the public API only
// (`tool.listFiles()`, which has no output limit, so a big tree never spills).

/** A nested tree {name, path, dir, children} from the flat path lists. */
export function buildTree({ dirs, files }) {
  const root = { name: "/", path: "/", dir: true, children: new Map() };
  const place = (path, dir) => {
    let node = root;
    const parts = path.split("/").filter(Boolean);
    parts.forEach((name, index) => {
      const last = index === parts.length - 1;
      if (!node.children.has(name)) {
        const childPath = "/" + parts.slice(0, index + 1).join("/");
        node.children.set(name, { name, path: childPath, dir: !last || dir, children: new Map() });
      }
      node = node.children.get(name);
    });
  };
  dirs.forEach((path) => place(path, true));
  files.forEach((path) => place(path, false));
  return root;
}

/** {dirs, files}: the paths of the whole VFS but the root. */
export async function readListing(tool) {
  const entries = await tool.listFiles();
  const paths = (isDir) => entries.filter((e) => Boolean(e.isDir) === isDir && e.path !== "/").map((e) => e.path);
  return { dirs: paths(true), files: paths(false) };
}

export class FileTree {
  /**
   * @param {{list: HTMLElement, onOpenFile?: (path: string) => void}} options
   */
  constructor({ list, onOpenFile = () => {} }) {
    this.list = list;
    this.onOpenFile = onOpenFile;
    this.closed = new Set(["/.system"]); // folders the user folded
    this.known = null; // paths seen at the last refresh, to mark new ones
    this.paths = [];
  }

  /** Ask the runtime for the current tree and draw it. */
  async refresh(tool) {
    const listing = await readListing(tool);
    this.paths = [...listing.dirs, ...listing.files];
    const fresh = this.known ? new Set(this.paths.filter((path) => !this.known.has(path))) : new Set();
    this.known = new Set(this.paths);
    this.draw(buildTree(listing), fresh);
    return listing;
  }

  draw(root, fresh) {
    this.list.replaceChildren(...this.items(root, fresh));
    if (!root.children.size) {
      const empty = document.createElement("li");
      empty.className = "hint";
      empty.textContent = "(empty)";
      this.list.append(empty);
    }
  }

  items(node, fresh) {
    const children = [...node.children.values()].sort(compareEntries);
    return children.map((child) => this.item(child, fresh));
  }

  item(node, fresh) {
    const li = document.createElement("li");
    li.className = node.dir ? "dir" : "file";
    li.dataset.path = node.path;
    if (fresh.has(node.path)) li.classList.add("fresh");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "entry";
    button.textContent = node.dir ? `${node.name}/` : node.name;
    li.append(button);
    if (node.dir) {
      const open = !this.closed.has(node.path);
      li.classList.toggle("open", open);
      button.setAttribute("aria-expanded", String(open));
      button.addEventListener("click", () => this.toggle(li, button, node.path));
      const ul = document.createElement("ul");
      ul.append(...this.items(node, fresh));
      li.append(ul);
    } else {
      button.title = `cat ${node.path}`;
      button.addEventListener("click", () => this.onOpenFile(node.path));
    }
    return li;
  }

  toggle(li, button, path) {
    const open = !li.classList.contains("open");
    li.classList.toggle("open", open);
    button.setAttribute("aria-expanded", String(open));
    if (open) this.closed.delete(path);
    else this.closed.add(path);
  }
}

/** Folders first, then names in code point order (as `ls` sorts in the C locale). */
function compareEntries(a, b) {
  if (a.dir !== b.dir) return a.dir ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
