// Runs the module's exports in Node's WebAssembly engine, one call per case.
// Usage: node run.mjs MODULE.wasm CASES.json; prints [[length, text], ...] as JSON.
import { readFileSync } from "node:fs";

const [module_path, cases_path] = process.argv.slice(2);
const { instance } = await WebAssembly.instantiate(readFileSync(module_path));
const wasm = instance.exports;
const BUFFER_LEN = 256;
const cells = () => new Uint8Array(wasm.memory.buffer, wasm.buffer(), BUFFER_LEN);

function put(text) {
    const bytes = new TextEncoder().encode(text);
    cells().set(bytes.subarray(0, BUFFER_LEN));
    return Math.min(bytes.length, BUFFER_LEN);
}

function call(c) {
    switch (c.call) {
        case "compose":
            return wasm.compose(...c.args.map(BigInt));
        case "decode":
            return wasm.decode(BigInt(c.args[0]));
        case "parse":
            return wasm.parse(put(c.text));
        case "parse_field":
            return wasm.parse_field(c.field, put(c.text));
        default:
            throw new Error(`unknown call ${c.call}`);
    }
}

const answers = JSON.parse(readFileSync(cases_path, "utf8")).map((c) => {
    const len = call(c);
    const text = new TextDecoder().decode(cells().subarray(0, Math.abs(len)));
    return [len, text];
});
process.stdout.write(JSON.stringify(answers));
