// Package tables reads and writes a BOINC project's database tables as
// files: the columns of host, result, workunit, app, app_version,
// platform, user, team and host_app_version that creditsim uses, named
// as BOINC's db/schema.sql names them, one file per table in the form
// `mysql --batch` prints (tab-separated, a header line, backslash
// escapes, \N for NULL) or as CSV. schema.sql and load.sql, written
// beside the files, create the tables and load the files into a MySQL
// or MariaDB database.
//
// Columns a file lacks are zero; columns it has beyond these are
// ignored, so a full export of a project's tables reads as it is.
// Times are Unix seconds, as BOINC's server stores them.
//
// Imports (layer 7): internal/inputlimit.
package tables
