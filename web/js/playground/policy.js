// The playground's default policy (the dict format of onetool_wasm/policy.py).
//
// With a policy every built-in command is a subject `<group>:<command>` too, and in guided mode
// anything that writes asks first. Precedence is deny, allow, confirm, so the built-ins that may
// write without asking are listed one by one in `allow`: only `fs:rm` and `fs:mv` are left to
// `confirm`. API operations (`petstore:createPet`) match none of these lists: reads run, writes
// ask (guided mode), which is the `*:*` write rule of the design.

export const DEFAULT_POLICY = Object.freeze({
  mode: "guided",
  confirm: ["fs:rm", "fs:mv"],
  allow: [
    "fs:write", "fs:append", "fs:mkdir", "fs:cp", "fs:touch",
    "text:*", "data:*", "system:*", "adapters:*",
  ],
});
