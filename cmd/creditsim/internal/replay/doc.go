// Package replay feeds a project's recorded results to credit systems, in
// the order the server handled them, and says what each system would have
// granted beside what the project granted.
//
// Inputs are BOINC's credit_test_data (what html/ops/credit_test.php
// writes: valid results only, ten whitespace-separated fields, no times)
// and a CSV with named columns (Columns), which a SELECT over the
// project's database or creditsim run --trace produces. A trace also
// carries the server's periods and the world in a header line, so its
// replay regenerates the feeder, validator and day ticks and gives each
// job-based policy exactly the credit the run gave. Package projectdb
// reads the same columns from a live database into an Input (Rows).
//
// Imports (layer 8): boinc, cmd/creditsim/internal/tables, internal/chunked, internal/inputlimit, internal/suggest, policy, results, results/plot, sim.
package replay
