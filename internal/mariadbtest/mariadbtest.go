package mariadbtest

import (
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql" // the server's driver
)

// Start starts a server and returns a DSN for it with no database
// (root@unix(SOCKET)/), and a connection to it, closed when the test
// ends. It skips the test where no server is installed.
func Start(t testing.TB) (string, *sql.DB) {
	t.Helper()
	server, err := exec.LookPath("mariadbd")
	if err != nil {
		if _, e := os.Stat("/usr/sbin/mariadbd"); e != nil {
			t.Skip("no MariaDB server (Debian's mariadb-server installs one; .ci/run does)")
		}
		server = "/usr/sbin/mariadbd"
	}
	install, err := exec.LookPath("mariadb-install-db")
	if err != nil {
		t.Skip("no mariadb-install-db (Debian's mariadb-server installs it)")
	}
	dir, err := os.MkdirTemp("", "mariadb")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	data, sock := filepath.Join(dir, "data"), filepath.Join(dir, "sock")
	user := []string{}
	if os.Geteuid() == 0 {
		user = []string{"--user=root"}
	}
	if out, err := exec.Command(install, append([]string{"--no-defaults", "--datadir=" + data, "--skip-test-db", "--auth-root-authentication-method=normal"}, user...)...).CombinedOutput(); err != nil {
		t.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	cmd := exec.Command(server, append([]string{"--no-defaults", "--datadir=" + data, "--socket=" + sock, "--skip-networking",
		"--skip-grant-tables", "--local-infile=1", "--pid-file=" + filepath.Join(dir, "pid"), "--log-error=" + filepath.Join(dir, "err.log")}, user...)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	dsn := "root@unix(" + sock + ")/"
	for i := 0; ; i++ {
		db, err := sql.Open("mysql", dsn)
		if err == nil {
			if err = db.Ping(); err == nil {
				t.Cleanup(func() { db.Close() })
				return dsn, db
			}
			db.Close()
		}
		if i > 100 {
			log, _ := os.ReadFile(filepath.Join(dir, "err.log"))
			t.Fatalf("MariaDB did not start: %v\n%s", err, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
