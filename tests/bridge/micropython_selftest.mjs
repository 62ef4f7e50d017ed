// Runs firmware_bridge/firmware/selftest.py under real MicroPython (the WebAssembly port).
// usage: node micropython_selftest.mjs MICROPYTHON_MJS FIRMWARE_DIR VECTORS_JSON
// Prints "checks N" on success, "ERROR type: message" otherwise.
import fs from "fs";
import path from "path";
import { pathToFileURL } from "url";

const [mjs, src, vectors] = process.argv.slice(2);
const { loadMicroPython } = await import(pathToFileURL(mjs).href);
let out = "";
const mp = await loadMicroPython({ stdout: (t) => { out += t + "\n"; }, stderr: (t) => { out += t + "\n"; } });
mp.FS.mkdir("/firmware");
for (const f of fs.readdirSync(src)) {
  if (f.endsWith(".py")) mp.FS.writeFile("/firmware/" + f, fs.readFileSync(path.join(src, f)));
}
mp.FS.writeFile("/vectors.json", fs.readFileSync(vectors));
try {
  mp.runPython([
    "import sys",
    "sys.path.insert(0, '/')",
    "print(sys.implementation.name)",
    "from firmware import selftest, app, presence, debounce, mfrc522, config",
    "for name in ('board', 'main'):",
    "    compile(open('/firmware/' + name + '.py').read(), name, 'exec')",
    "print('compiled board main')",
    "print('checks', selftest.run('/vectors.json'))",
  ].join("\n"));
} catch (e) {
  out += "ERROR " + (e.type || "") + ": " + e.message + "\n";
}
process.stdout.write(out);
