// Package mariadbtest starts a private MariaDB server for tests that read
// a project's database: on a socket in a temporary folder, no network,
// no grants, stopped when the test ends. A test skips, saying why, where
// no server is installed (.ci/run installs Debian's mariadb-server).
//
// Imports (layer 0): none.
package mariadbtest
