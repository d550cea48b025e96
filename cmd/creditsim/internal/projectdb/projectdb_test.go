package projectdb_test

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/projectdb"
)

// TestIsDSN: every DSN form the driver accepts is taken for a database,
// so that a password is never echoed as a missing file's name; paths,
// even with an "@", are files.
func TestIsDSN(t *testing.T) {
	for arg, want := range map[string]bool{
		"boinc:PASSWORD@tcp(127.0.0.1:3306)/boinc":  true,
		"boinc:PASSWORD@/boinc":                     true,
		"boinc:PASSWORD@tcp6([::1]:1)/boinc":        true,
		"boinc@unix(/run/mysqld/mysqld.sock)/boinc": true,
		"mysql://boinc:pw@tcp(h:3306)/boinc":        true,
		"results.csv":                               false,
		"data/results.csv":                          false,
		"me@home.csv":                               false,
		"/tmp/x@y":                                  false,
	} {
		if got := projectdb.IsDSN(arg); got != want {
			t.Errorf("IsDSN(%q) = %v, want %v", arg, got, want)
		}
	}
}

// TestSilentServer: a server that accepts a connection and says nothing
// (or answers in another protocol) does not hang a replay: the connect
// time-out covers the handshake. The message hides the password.
func TestSilentServer(t *testing.T) {
	for _, answer := range []string{"", "HTTP/1.1 200 OK\r\n\r\n", "\xff\xff\xff\x00garbage"} {
		t.Run(fmt.Sprintf("%q", answer), func(t *testing.T) {
			t.Parallel()
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go func() {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				c.Write([]byte(answer))
				time.Sleep(10 * time.Second)
				c.Close()
			}()
			start := time.Now()
			_, err = projectdb.Read("boinc:PASSWORD@tcp("+ln.Addr().String()+")/boinc?timeout=100ms", projectdb.Query{})
			ln.Close()
			if err == nil {
				t.Fatal("no error")
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("gave up after %v", d)
			}
			if strings.Contains(err.Error(), "PASSWORD") {
				t.Errorf("the message shows the password: %v", err)
			}
		})
	}
	if projectdb.ConnectTimeout > 30*time.Second || projectdb.ReadTimeout <= 0 {
		t.Errorf("default time-outs %v, %v", projectdb.ConnectTimeout, projectdb.ReadTimeout)
	}
}
