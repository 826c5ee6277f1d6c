// The adapter the node runner loads (NIPRS_CLIENT): one function per kind
// this client implements, each taking a vector's input and returning the
// output to compare with its expected member.
export { codecVector as codec } from "./codec.mjs";
export { registerVector as register } from "./register.mjs";
export { loadVector as load } from "./load.mjs";
