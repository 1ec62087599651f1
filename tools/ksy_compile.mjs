#!/usr/bin/env node
// Compile Kaitai Struct specs (ksy/*.ksy) into the Python parsers of recspec/_ksy/.
//
// Usage: node tools/ksy_compile.mjs --out DIR [--ksy-dir DIR] [--no-debug] [FILE.ksy ...]
//
// Without files, every *.ksy of the spec folder (default: ksy/ of the
// checkout) is compiled. The npm package
// `kaitai-struct-compiler` (pinned in package-lock.json) has no command line,
// only `compile(lang, yamlObject, importer, debug)`, so this script:
//
// * parses each spec with js-yaml;
// * resolves `meta.imports` against the spec folder (both "rel" and "abs"
//   imports; the importer is not told which spec asked, and all our specs
//   live in ksy/);
// * compiles in debug mode: generated classes do not parse in the
//   constructor (call `_read()`), list their fields in `SEQ_FIELDS` and record
//   field positions in `_debug`. With --no-debug, the compiler's normal mode:
//   the constructor parses, no positions are kept; about twice as fast and a
//   fifth of the memory (recspec/_ksy_fast/, used by the cross-check);
// * rewrites the bare-name imports of other generated modules (`import foo`,
//   `from foo import Foo`) into relative imports inside the package, so the
//   modules work as `recspec._ksy.foo` without touching sys.path;
// * does the same for custom `process:` routines: `process: recspec_xz(n)`
//   makes the compiler write `from recspec_xz import RecspecXz`; the routine
//   is hand-written in recspec/_ksy_process/recspec_xz.py, so the import
//   becomes `from .._ksy_process.recspec_xz import RecspecXz`. An import that
//   is neither a generated module, a routine there, nor the runtime is an
//   error (a routine that was never written fails here, not at run time);
// * makes the output deterministic: one stable header comment that names the
//   source spec and the compiler version, LF line endings, one trailing newline.
//
// Files are written to DIR (created if missing); nothing else in DIR is
// touched. tools/generate_parsers.py is the Python entry point around this.

import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
let KSY_DIR = path.join(REPO, "ksy");
let DEBUG = true;
// Hand-written custom process routines, one module per routine name.
const ROUTINE_DIR = path.join(REPO, "recspec", "_ksy_process");
const ROUTINE_PACKAGE = "_ksy_process";
// What generated code may import besides generated modules and routines.
const RUNTIME_IMPORTS = new Set(["kaitaistruct", "collections", "enum", "zlib"]);

function routines() {
  if (!fs.existsSync(ROUTINE_DIR)) {
    return new Set();
  }
  return new Set(
    fs.readdirSync(ROUTINE_DIR)
      .filter((name) => name.endsWith(".py") && name !== "__init__.py")
      .map((name) => name.replace(/\.py$/, "")),
  );
}

// How a spec file is named in the generated header: relative to the parent of
// the spec folder ("ksy/carla_recorder.ksy"), with forward slashes.
function origin(file) {
  return path.relative(path.dirname(KSY_DIR), file).split(path.sep).join("/");
}

function fail(message) {
  process.stderr.write(`ksy_compile: ${message}\n`);
  process.exit(2);
}

function loadDependencies() {
  try {
    return {
      compiler: require("kaitai-struct-compiler"),
      yaml: require("js-yaml"),
    };
  } catch (err) {
    fail(`cannot load the npm toolchain (${err.message}); run \`npm ci\` first`);
  }
  return undefined;
}

function parseArgs(argv) {
  let out = null;
  const files = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === "--out") {
      out = argv[i + 1];
      i += 1;
    } else if (arg.startsWith("--out=")) {
      out = arg.slice("--out=".length);
    } else if (arg === "--ksy-dir") {
      KSY_DIR = path.resolve(argv[i + 1]);
      i += 1;
    } else if (arg === "--no-debug") {
      DEBUG = false;
    } else if (arg === "-h" || arg === "--help") {
      process.stdout.write("usage: node tools/ksy_compile.mjs --out DIR [--ksy-dir DIR] [--no-debug] [FILE.ksy ...]\n");
      process.exit(0);
    } else if (arg.startsWith("-")) {
      fail(`unknown option ${arg}`);
    } else {
      files.push(arg);
    }
  }
  if (!out) {
    fail("missing --out DIR");
  }
  return { out: path.resolve(out), files };
}

function allSpecs() {
  return fs
    .readdirSync(KSY_DIR)
    .filter((name) => name.endsWith(".ksy"))
    .sort()
    .map((name) => path.join(KSY_DIR, name));
}

function readSpec(yaml, file) {
  const text = fs.readFileSync(file, "utf8");
  try {
    return yaml.load(text, { filename: file });
  } catch (err) {
    fail(`${path.relative(REPO, file)}: YAML error: ${err.message}`);
  }
  return undefined;
}

// The importer the compiler calls for each `meta.imports` entry. It also
// remembers which spec file each imported module id came from, for the header.
function makeImporter(yaml, origins) {
  return {
    importYaml(name, mode) {
      const rel = name.endsWith(".ksy") ? name : `${name}.ksy`;
      const file = path.resolve(KSY_DIR, rel.replace(/^\/+/, ""));
      if (!fs.existsSync(file)) {
        return Promise.reject(new Error(`import ${JSON.stringify(name)} (${mode}): ${file} not found`));
      }
      const spec = readSpec(yaml, file);
      const id = spec && spec.meta && spec.meta.id;
      if (id) {
        origins.set(id, origin(file));
      }
      return Promise.resolve(spec);
    },
  };
}

const GENERATED_HEADER = /^# This is a generated file! Please edit source \.ksy file and use kaitai-struct-compiler to rebuild\n/;

// Rewrite the imports of sibling generated modules and of the custom process
// routines into relative imports; refuse any other bare import.
function relativizeImports(source, modules, routineNames, file) {
  const check = (mod) => {
    if (!modules.has(mod) && !routineNames.has(mod) && !RUNTIME_IMPORTS.has(mod)) {
      fail(`${file} imports ${mod}, which is neither a generated module nor a process routine ` +
           `(write it as ${path.relative(REPO, path.join(ROUTINE_DIR, `${mod}.py`))})`);
    }
  };
  return source
    .replace(/^import ([A-Za-z_][A-Za-z0-9_]*)$/gm, (line, mod) => {
      check(mod);
      if (modules.has(mod)) return `from . import ${mod}`;
      if (routineNames.has(mod)) return `from ..${ROUTINE_PACKAGE} import ${mod}`;
      return line;
    })
    .replace(/^from ([A-Za-z_][A-Za-z0-9_]*) import /gm, (line, mod) => {
      check(mod);
      if (modules.has(mod)) return `from .${mod} import `;
      if (routineNames.has(mod)) return `from ..${ROUTINE_PACKAGE}.${mod} import `;
      return line;
    });
}

function postProcess(source, origin, version, modules, routineNames, name) {
  let text = source.replace(/\r\n?/g, "\n");
  text = text.replace(GENERATED_HEADER, "");
  text = relativizeImports(text, modules, routineNames, name);
  const header = [
    `# Generated from ${origin} by tools/ksy_compile.mjs`,
    `# (kaitai-struct-compiler ${version}, ${DEBUG ? "debug mode" : "no debug mode"}). Do not edit by hand:`,
    "# change the .ksy file and run `python tools/generate_parsers.py`.",
    "",
  ].join("\n");
  return `${header}\n${text.replace(/\s+$/, "")}\n`;
}

async function main() {
  const { out, files } = parseArgs(process.argv.slice(2));
  const { compiler, yaml } = loadDependencies();
  const specs = files.length ? files.map((f) => path.resolve(f)) : allSpecs();
  if (!specs.length) {
    fail(`no .ksy files in ${KSY_DIR}`);
  }

  const outputs = new Map(); // file name -> { source, from }
  for (const file of specs) {
    const spec = readSpec(yaml, file);
    const origins = new Map(); // module id -> spec file it was compiled from
    const id = spec && spec.meta && spec.meta.id;
    if (id) {
      origins.set(id, origin(file));
    }
    let result;
    try {
      result = await compiler.compile("python", spec, makeImporter(yaml, origins), DEBUG);
    } catch (err) {
      const detail = err && err.message ? err.message : String(err);
      fail(`${origin(file)}: ${detail}`);
    }
    for (const [name, source] of Object.entries(result)) {
      const from = origins.get(name.replace(/\.py$/, "")) || origin(file);
      const previous = outputs.get(name);
      if (previous && previous.source !== source) {
        fail(`${name} is generated differently by two specs (${previous.from}, ${from})`);
      }
      outputs.set(name, { source, from });
    }
  }

  const modules = new Set([...outputs.keys()].map((name) => name.replace(/\.py$/, "")));
  const routineNames = routines();
  fs.mkdirSync(out, { recursive: true });
  for (const name of [...outputs.keys()].sort()) {
    const { source, from } = outputs.get(name);
    const text = postProcess(source, from, compiler.version, modules, routineNames, name);
    fs.writeFileSync(path.join(out, name), text, "utf8");
    process.stdout.write(`${path.join(out, name)}\n`);
  }
}

main().catch((err) => fail(err && err.stack ? err.stack : String(err)));
