// Build web/dist: a static site that plays Shock! in the browser with the engine running in
// Pyodide, and no server but whatever serves the files.
//
//   cd web && npm ci && npm run build
//
// dist/ gets the Pyodide runtime (from node_modules/pyodide), the pure wheel of this repository
// and the wheels of its runtime dependencies (requirements.txt, exact versions and hashes), a
// manifest of those wheels (wheels.json), the browser client of `shock-rules serve` (its
// index.html, its ES modules and style.css, with relative paths), and the in-page host
// (src/local.js, a module beside the client's, and src/host.py). The Python that builds the
// wheels is $PYTHON, or python3.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const started = performance.now();
const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const root = path.resolve(web, "..");
const dist = path.join(web, "dist");
const pyodideDir = path.join(web, "node_modules", "pyodide");
const staticDir = path.join(root, "src", "shock_rules", "server", "static");
const python = process.env.PYTHON || "python3";

/** The Pyodide files the page loads: the loader, the Emscripten module, the WebAssembly
 * binary and the standard library. (pyodide.js, the classic-script loader, and the consoles
 * are not used.) */
const RUNTIME = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"];

function fail(message) {
  console.error(`build: ${message}`);
  process.exit(1);
}

function run(command, args, options = {}) {
  try {
    execFileSync(command, args, { stdio: ["ignore", "inherit", "inherit"], ...options });
  } catch (exc) {
    fail(`${command} ${args.join(" ")} failed (${exc.status ?? exc.code})`);
  }
}

if (!fs.existsSync(path.join(pyodideDir, "package.json"))) {
  fail("node_modules/pyodide is missing: run `npm ci` in web/ first");
}
const pyodideVersion = JSON.parse(fs.readFileSync(path.join(pyodideDir, "package.json"))).version;

fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(path.join(dist, "wheels"), { recursive: true });

// ---- The Pyodide runtime.
for (const name of RUNTIME) fs.copyFileSync(path.join(pyodideDir, name), path.join(dist, name));
// The lock file lists the packages Pyodide may load by name, each fetched from packageBaseUrl
// (by default the jsDelivr CDN). This site loads none of them (its wheels are unpacked by
// local.js), so it ships the lock's header only: a stray loadPackage then fails at once
// instead of reaching another origin.
const lock = JSON.parse(fs.readFileSync(path.join(pyodideDir, "pyodide-lock.json")));
fs.writeFileSync(path.join(dist, "pyodide-lock.json"),
  JSON.stringify({ info: lock.info, packages: {} }));

// ---- The wheels: this repository's pure wheel (never the mypyc build: no C extension loads
// in Pyodide) and its dependencies' pure wheels for Python 3.14.
const env = { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" };
delete env.SHOCK_RULES_COMPILE;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "shock-web-"));
try {
  run(python, ["-m", "pip", "wheel", "-q", "--no-deps", "-w", scratch, root], { env });
  const own = fs.readdirSync(scratch).filter((f) => /^shock_rules-.*-py3-none-any\.whl$/.test(f));
  if (own.length !== 1) fail(`expected one pure shock_rules wheel, got ${JSON.stringify(own)}`);
  fs.copyFileSync(path.join(scratch, own[0]), path.join(dist, "wheels", own[0]));
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
run(python, [
  "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "--require-hashes",
  "--python-version", "3.14", "--implementation", "py", "--abi", "none", "--platform", "any",
  "-r", path.join(web, "requirements.txt"), "-d", path.join(dist, "wheels"),
], { env });

// The manifest local.js reads: each wheel with its Subresource Integrity hash, which the
// browser checks as it fetches the file. The package comes last (an order that does not
// matter to unpacking, but reads as install order).
const wheels = fs.readdirSync(path.join(dist, "wheels")).sort((a, b) =>
  Number(a.startsWith("shock_rules-")) - Number(b.startsWith("shock_rules-")) || a.localeCompare(b));
for (const file of wheels) {
  if (!file.endsWith("-py3-none-any.whl")) fail(`not a pure wheel: ${file}`);
}
const manifest = {
  pyodide: pyodideVersion,
  wheels: wheels.map((file) => {
    const bytes = fs.readFileSync(path.join(dist, "wheels", file));
    return {
      file: `wheels/${file}`,
      size: bytes.length,
      integrity: `sha256-${createHash("sha256").update(bytes).digest("base64")}`,
    };
  }),
};

// ---- The page: the server's client, unchanged but for its paths and one more module.
// Every module and style sheet of the client (index.html is rewritten below): the modules
// import each other by relative paths ("./shell.js"), so they keep their names, side by side.
for (const name of fs.readdirSync(staticDir).filter((n) => /\.(js|css)$/.test(n))) {
  fs.copyFileSync(path.join(staticDir, name), path.join(dist, name));
}
let html = fs.readFileSync(path.join(staticDir, "index.html"), "utf8");
// The server serves the client under /static/ and the lobby at /; this site may live in any
// folder, so every path becomes relative to the page.
html = html.replaceAll(/(href|src)="\/static\//g, '$1="').replaceAll('href="/"', 'href="./"');
const appScript = /<script type="module" src="app\.js"><\/script>/;
if (!appScript.test(html)) fail("index.html has no <script type=\"module\" src=\"/static/app.js\">");
// local.js defines window.shockHost before app.js starts (module scripts run in document
// order).
html = html.replace(appScript, (tag) => `<script type="module" src="local.js"></script>\n  ${tag}`);
if (/"\/static\//.test(html)) fail("index.html still refers to /static/");
fs.writeFileSync(path.join(dist, "index.html"), html);
for (const name of ["local.js", "host.py"]) {
  fs.copyFileSync(path.join(web, "src", name), path.join(dist, name));
}

// Written last: the tests take its time for the build's (tests/browser/_web.py).
fs.writeFileSync(path.join(dist, "wheels.json"), JSON.stringify(manifest, null, 2) + "\n");

// ---- What was built.
let total = 0;
const sizes = [];
for (const entry of fs.readdirSync(dist, { recursive: true })) {
  const stat = fs.statSync(path.join(dist, entry));
  if (!stat.isFile()) continue;
  total += stat.size;
  sizes.push([entry, stat.size]);
}
sizes.sort((a, b) => b[1] - a[1]);
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
for (const [entry, size] of sizes) console.log(`  ${entry.padEnd(48)} ${mb(size).padStart(9)}`);
console.log(`web/dist: ${sizes.length} files, ${mb(total)}, Pyodide ${pyodideVersion},` +
  ` built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
