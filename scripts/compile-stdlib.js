// The standard library the phone's Python imports from, compiled: Pyodide's python_stdlib.zip
// holds sources, which Python would compile at every start of the engine on the phone. Pyodide's
// own Python (3.13, as on the phone) compiles them here, once, into python_stdlib_compiled.zip
// (loaded with loadPyodide's stdLibURL by static/offline/worker.js), leaving out the packages
// that only a developer uses (test runners, debuggers, the REPL) or that the engine never does.
// Usage: node scripts/compile-stdlib.js RUNTIME_FOLDER   (run by scripts/fetch-pyodide)
"use strict";
const fs = require("fs");
const path = require("path");

const folder = path.resolve(process.argv[2]);
const LEFT_OUT = ["unittest", "_pyrepl", "pydoc", "pydoc_data", "pdb", "doctest", "multiprocessing",
  "xmlrpc", "mailbox", "tarfile", "wsgiref", "idlelib", "turtledemo", "ensurepip", "venv"];

const COMPILE = `
import importlib._bootstrap_external as external
import zipfile

def kept(name):
    return name.split("/")[0].removesuffix(".py") not in left_out

with zipfile.ZipFile("/tmp/in.zip") as source, zipfile.ZipFile(
    "/tmp/out.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9
) as compiled:
    for info in filter(lambda info: kept(info.filename), source.infolist()):
        data = source.read(info)
        if info.filename.endswith(".py"):  # sourceless: zipimport loads name.pyc as it is
            # optimize=2 (python -OO: no docstrings, no asserts), which the standard library
            # is tested under: a smaller download
            code = compile(data, info.filename, "exec", dont_inherit=True, optimize=2)
            info = zipfile.ZipInfo(info.filename + "c", info.date_time)
            data = external._code_to_timestamp_pyc(code)
        compiled.writestr(info, data, zipfile.ZIP_DEFLATED)
`;

(async () => {
  const { loadPyodide } = require(path.join(folder, "pyodide.js"));
  const pyodide = await loadPyodide({ indexURL: folder + "/" });
  pyodide.FS.writeFile("/tmp/in.zip", fs.readFileSync(path.join(folder, "python_stdlib.zip")));
  pyodide.globals.set("left_out", pyodide.toPy(LEFT_OUT));
  pyodide.runPython(COMPILE);
  fs.writeFileSync(path.join(folder, "python_stdlib_compiled.zip"), pyodide.FS.readFile("/tmp/out.zip"));
})().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
