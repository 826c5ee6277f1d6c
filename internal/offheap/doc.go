// Package offheap hands out blocks of pointer-free memory mapped outside
// the Go heap, for the explorer's large tables (the state store, the
// delivery tables, the workers' memos).
//
// Such memory is neither scanned by the garbage collector nor counted
// towards its next goal: a table of M bytes costs M of resident memory
// instead of up to 2M under the default pacing. Blocks of 2 MiB and more
// are aligned to 2 MiB and advised as huge pages, so that where the kernel
// grants them one page fault maps 2 MiB instead of 4 KiB (faults are a
// large share of a short run's time in a virtual machine). Small blocks
// come from the Go heap: a mapping per few kilobytes would cost more than
// it saves.
//
// An Arena tracks what it mapped; Free returns one block at once, FreeAll
// every block. Nothing is freed behind its owner's back: an owner either
// frees explicitly or registers FreeAll as its cleanup.
package offheap
