// Compiles .ksy specs to Python with the official Kaitai Struct compiler (npm
// kaitai-struct-compiler, JavaScript build): node kaitai_compile.js NODE_MODULES OUTDIR SPEC.ksy…
// Exits non-zero when any spec fails to compile.
"use strict";
const fs = require("fs");
const path = require("path");
const [modules, outdir, ...specs] = process.argv.slice(2);
const compiler = require(path.join(modules, "kaitai-struct-compiler"));
const yaml = require(path.join(modules, "js-yaml"));

async function main() {
  let failed = 0;
  for (const spec of specs) {
    try {
      const ksy = yaml.load(fs.readFileSync(spec, "utf8"));
      const files = await compiler.compile("python", ksy, null, false);
      for (const [name, text] of Object.entries(files)) {
        fs.writeFileSync(path.join(outdir, name), text);
      }
      console.log(`ok   compile ${path.basename(spec)} (compiler ${compiler.version}): ${Object.keys(files).join(", ")}`);
    } catch (error) {
      failed += 1;
      console.log(`FAIL compile ${path.basename(spec)}: ${error && error.toString ? error.toString() : error}`);
    }
  }
  process.exit(failed === 0 ? 0 : 1);
}
main();
