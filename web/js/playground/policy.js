// The playground's default policy (the dict format of onetool_wasm/policy.py).
//
// With a policy every built-in command is a subject `<group>:<command>` too, and in guided mode
// anything that writes asks first. Precedence is deny, allow, confirm, so the built-ins that may
// write without asking are listed in `allow`: `fs:rm` and `fs:mv` are left to `confirm`, and
// `confirmOverwrites` asks before any allowed command replaces a file that exists (`write`,
// `cp`, `> file`, `sed -i`, `tee`, `sort -o`). API operations (`petstore:createPet`) match none
// of these lists: reads run, writes ask (guided mode).

export const DEFAULT_POLICY = Object.freeze({
  mode: "guided",
  confirm: ["fs:rm", "fs:mv"],
  confirmOverwrites: true,
  allow: [
    "fs:write", "fs:append", "fs:mkdir", "fs:cp", "fs:touch",
    "text:*", "data:*", "system:*", "adapters:*",
  ],
});
