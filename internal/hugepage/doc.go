// Package hugepage asks Linux to back a large, long-lived slice with
// transparent huge pages. A simulation of many hosts touches its result,
// workunit and event records at random across hundreds of megabytes;
// with 4 KB pages most of those touches also miss the TLB. Where the
// system's THP mode is "madvise" (Debian's default), memory gets huge
// pages only when the program asks, and Go's runtime does not ask for
// its heap. The advice changes how memory is paged, never its contents,
// so results do not depend on it; elsewhere it does nothing.
//
// Imports (layer 0): none.
package hugepage
