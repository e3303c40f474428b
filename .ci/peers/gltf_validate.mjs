// Runs the Khronos glTF validator on every .glb/.gltf file given on the command line.
// Prints one line per file and exits non-zero when any file has validation errors.
// Usage: node gltf_validate.mjs VALIDATOR_DIR FILE...
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const [validatorDir, ...files] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(validatorDir), 'index.js'));
const validator = require('gltf-validator');

let failed = 0;
for (const file of files) {
  try {
    const bytes = new Uint8Array(await readFile(file));
    const report = await validator.validateBytes(bytes, {
      uri: path.basename(file),
      maxIssues: 100,
      externalResourceFunction: (uri) =>
        readFile(path.join(path.dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
    });
    const issues = report.issues;
    const summary = `${issues.numErrors} errors, ${issues.numWarnings} warnings, ${issues.numInfos} infos`;
    if (issues.numErrors > 0) {
      failed += 1;
      console.log(`FAIL ${file}: ${summary}`);
      for (const message of issues.messages.filter((m) => m.severity === 0)) {
        console.log(`  ${message.code} ${message.pointer ?? ''}: ${message.message}`);
      }
    } else {
      console.log(`ok   ${file}: ${summary}`);
      for (const message of issues.messages.filter((m) => m.severity === 1)) {
        console.log(`  warning ${message.code} ${message.pointer ?? ''}: ${message.message}`);
      }
    }
  } catch (error) {
    failed += 1;
    console.log(`FAIL ${file}: ${error}`);
  }
}
console.log(`validator: ${files.length - failed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
