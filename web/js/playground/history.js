// Command history with ↑/↓ navigation, like a shell: the line being typed is kept as the newest slot.

export class CommandHistory {
  constructor({ limit = 200, storageKey = null } = {}) {
    this.limit = limit;
    this.storageKey = storageKey;
    this.entries = this.load();
    this.position = this.entries.length; // == entries.length: the draft line
    this.draft = "";
  }

  /** Remember a line that was run; repeats of the last line are not stored twice. */
  push(line) {
    if (line.trim() && this.entries[this.entries.length - 1] !== line) {
      this.entries.push(line);
      this.entries.splice(0, Math.max(0, this.entries.length - this.limit));
      this.save();
    }
    this.position = this.entries.length;
    this.draft = "";
  }

  /** The older line (↑), or null at the oldest. `current` is what the input holds now. */
  previous(current) {
    if (this.position === 0) return null;
    if (this.position === this.entries.length) this.draft = current;
    this.position -= 1;
    return this.entries[this.position];
  }

  /** The newer line (↓), back to the draft after the newest; null when already there. */
  next() {
    if (this.position >= this.entries.length) return null;
    this.position += 1;
    return this.position === this.entries.length ? this.draft : this.entries[this.position];
  }

  load() {
    if (!this.storageKey) return [];
    try {
      const stored = JSON.parse(sessionStorage.getItem(this.storageKey) || "[]");
      return Array.isArray(stored) ? stored.filter((item) => typeof item === "string") : [];
    } catch {
      return [];
    }
  }

  save() {
    if (!this.storageKey) return;
    try {
      sessionStorage.setItem(this.storageKey, JSON.stringify(this.entries));
    } catch {
      // Storage full or unavailable: history just isn't kept across reloads.
    }
  }
}
