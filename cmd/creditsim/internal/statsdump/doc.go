// Package statsdump reads and writes the host table of a BOINC project's
// public statistics export: host.gz as BOINC's db_dump writes it with
// <detail/> (sched/db_dump.cpp, write_host): per host with credit, its
// creation and last-contact times, CPUs, benchmarks, operating system
// and GPUs, which are in <coprocs> ("[CUDA|model|count|...]") before
// 2025-11 and in the <misc> JSON ("gpus": [{"type", "model", "count"}])
// since. Times are Unix seconds.
//
// Imports (layer 8): internal/inputlimit.
package statsdump
