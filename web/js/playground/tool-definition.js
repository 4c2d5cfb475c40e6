// The tool definition panel: the `run` tool as an OpenAI, Anthropic or MCP client receives it.

export class ToolDefinitionPanel {
  constructor({ select, output, copyButton }) {
    this.select = select;
    this.output = output;
    this.copyButton = copyButton;
    this.tool = null;
    select.addEventListener("change", () => this.render());
    copyButton.addEventListener("click", () => this.copy());
  }

  /** Show the definition of `tool` (called again when the world, and so the tool, changes). */
  async attach(tool) {
    this.tool = tool;
    await this.render();
  }

  async render() {
    if (!this.tool) return;
    const format = this.select.value;
    try {
      const definition = await this.tool.toolDefinition(format);
      if (format === this.select.value) this.output.textContent = JSON.stringify(definition, null, 2);
    } catch (error) {
      this.output.textContent = `could not build the ${format} definition: ${error?.message || error}`;
    }
  }

  async copy() {
    try {
      await navigator.clipboard.writeText(this.output.textContent);
      this.copyButton.textContent = "Copied";
    } catch {
      this.copyButton.textContent = "Copy failed";
    }
    setTimeout(() => { this.copyButton.textContent = "Copy"; }, 1500);
  }
}
