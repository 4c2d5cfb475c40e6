// The world selector and the example command buttons of the loaded world.

export function renderWorldPicker(select, worlds, selectedId) {
  select.replaceChildren(...worlds.map(({ id, title }) => {
    const option = document.createElement("option");
    option.value = id;
    option.textContent = title;
    option.selected = id === selectedId;
    return option;
  }));
}

/** One button per example line; clicking runs it in the terminal. */
export function renderExamples(container, examples, run) {
  container.replaceChildren(...examples.map((line) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = line;
    button.title = `Run: ${line}`;
    button.addEventListener("click", () => run(line));
    return button;
  }));
}
