// Validates protocol documents against the package's JSON Schemas with ajv (draft 2020-12,
// strict mode), from outside Python: the documents that web/scripts/documents.py writes.
//
//   node scripts/validate.mjs DIR
//
// DIR holds <type>.jsonl files, one document a line. Each document must be of its file's
// type, valid against that type's schema, and valid against ShockProtocol (the union of the
// documents, told apart by "type"): exactly one document schema accepts it. Exits 1 naming
// the first invalid documents (file:line, the schema's complaint).

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const SCHEMAS = fileURLToPath(new URL("../../src/shock_rules/protocol/schemas/", import.meta.url));
const DOCUMENTS = ["view", "action", "events", "error", "state", "record", "config"];
const BASE = "https://shock-rules.github.io/schemas/2/";
const MAX_REPORTED = 10;

/** An ajv with every schema of the package added, so that their relative `$ref`s resolve. */
export function makeAjv() {
  // strict: unknown keywords, ignored `required` names, loose types... are errors, so that a
  // slip in a schema is caught here rather than silently validating less than it says.
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  // The schemas' one annotation of their own: which protocol version they describe.
  ajv.addKeyword({ keyword: "x-protocol", schemaType: "string" });
  for (const file of readdirSync(SCHEMAS).filter((f) => f.endsWith(".json")).sort()) {
    ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS, file), "utf8")));
  }
  ajv.addSchema({
    $id: `${BASE}protocol.json`,
    oneOf: DOCUMENTS.map((d) => ({ $ref: `${d}.json` })),
  });
  return ajv;
}

function main(dir) {
  const ajv = makeAjv();
  const union = ajv.getSchema(`${BASE}protocol.json`);
  const counts = {};
  const problems = [];
  const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort();
  if (!files.length) throw new Error(`no .jsonl documents in ${dir}`);
  for (const file of files) {
    const kind = file.slice(0, -".jsonl".length);
    const validate = DOCUMENTS.includes(kind) ? ajv.getSchema(`${BASE}${kind}.json`) : undefined;
    if (!validate) throw new Error(`${file}: no document type ${JSON.stringify(kind)}`);
    const lines = readFileSync(join(dir, file), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      const where = `${file}:${i + 1}`;
      const doc = JSON.parse(line);
      counts[kind] = (counts[kind] ?? 0) + 1;
      if (doc.type !== kind) {
        problems.push(`${where}: a ${JSON.stringify(doc.type)} document in ${file}`);
      } else if (!validate(doc)) {
        problems.push(`${where}: ${ajv.errorsText(validate.errors, { dataVar: kind })}`);
      } else if (!union(doc)) {
        problems.push(`${where}: valid as ${kind} but not as ShockProtocol: ${ajv.errorsText(union.errors)}`);
      }
    });
  }
  if (problems.length) {
    console.error(`${problems.length} invalid documents:`);
    for (const p of problems.slice(0, MAX_REPORTED)) console.error(`  ${p}`);
    if (problems.length > MAX_REPORTED) console.error(`  ... and ${problems.length - MAX_REPORTED} more`);
    process.exit(1);
  }
  console.log(`valid: ${JSON.stringify(counts)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.length !== 3) {
    console.error("usage: node scripts/validate.mjs DIR");
    process.exit(2);
  }
  try {
    main(process.argv[2]);
  } catch (err) {
    console.error(`validate: ${err.message}`);
    process.exit(1);
  }
}
