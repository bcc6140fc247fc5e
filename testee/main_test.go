//go:build unix

package testee

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary is its own testee: when behaviourEnv is set, TestMain runs
// the behaviour it names instead of the tests. The adapters under test start
// os.Args[0] with that variable in the environment.
const behaviourEnv = "TESTEE_TEST_BEHAVIOUR"

func TestMain(m *testing.M) {
	if b := os.Getenv(behaviourEnv); b != "" {
		os.Exit(runBehaviour(b))
	}
	os.Exit(m.Run())
}

// testeeEnv is the environment that selects behaviour b. (Built with -race,
// a program sleeps 1 s at exit unless GORACE says otherwise.)
func testeeEnv(b string) []string {
	return append(os.Environ(), behaviourEnv+"="+b, "GORACE=atexit_sleep_ms=0")
}

func testeeConfig(b string) Config {
	return Config{Command: []string{os.Args[0]}, Env: testeeEnv(b)}
}

func runBehaviour(b string) int {
	switch b {
	case "serve": // a well-behaved persistent testee: Serve over echoImpl
		if err := Serve(context.Background(), os.Stdin, os.Stdout, echoImpl{}, 0); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "misbehave":
		return misbehave()
	case "exit-early":
		fmt.Fprintln(os.Stderr, "boom: cannot start")
		return 2
	case "oneshot":
		return oneShot(os.Args[len(os.Args)-1])
	case "sleeper":
		time.Sleep(time.Hour)
		return 0
	case "detacher":
		// Start a detached sleeper, report its pid on fd 3, exit.
		syscall.CloseOnExec(3) // the pipe ends when we exit, not when the sleeper does
		fmt.Fprint(os.NewFile(3, "pid"), spawnDetached(false))
		return 0
	case "chainer":
		// Start a sleeper in a session of its own without the testee's tag
		// in its environment, report its pid on fd 3, and stay its parent.
		cmd := exec.Command(os.Args[0])
		for _, kv := range testeeEnv("sleeper") {
			if !strings.HasPrefix(kv, TagEnv+"=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		syscall.CloseOnExec(3) // the pipe ends when we close it, not when the sleeper does
		if err := cmd.Start(); err != nil {
			return 1
		}
		f := os.NewFile(3, "pid")
		fmt.Fprint(f, cmd.Process.Pid)
		f.Close()
		time.Sleep(time.Hour)
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown behaviour", b)
	return 99
}

// misbehave is a persistent testee that behaves like echoImpl, except for
// the test.* operations that each break the protocol in one way.
func misbehave() int {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := os.Stdout
	answer := func(s string) { io.WriteString(out, s+"\n") }
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		req, err := ParseRequest(line[:len(line)-1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad request:", err)
			return 1
		}
		id := req.ID
		switch req.Op {
		case "test.hang":
			time.Sleep(time.Hour)
		case "test.escape-group":
			escapeGroup()
		case "test.crash":
			io.WriteString(out, `{"id":`+strconv.FormatInt(id, 10)+`,"ok":tr`)
			fmt.Fprintln(os.Stderr, "crashing on purpose")
			os.Exit(3)
		case "test.exit":
			return 0
		case "test.exit-idle":
			answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{}}`, id))
			return 0
		case "test.close-stdout":
			out.Close()
			time.Sleep(time.Hour)
		case "test.wrongid":
			answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{}}`, id+1))
		case "test.noid":
			answer(`{"ok":true,"result":{}}`)
		case "test.invalid":
			answer("this is not json")
		case "test.badshape":
			answer(fmt.Sprintf(`{"id":%d,"ok":"yes","result":{}}`, id))
		case "test.double":
			answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{}}`+"\n"+`{"id":%d,"ok":true,"result":{}}`, id, id))
		case "test.late-double":
			answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{}}`, id))
			time.Sleep(50 * time.Millisecond)
			answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{}}`, id))
		case "test.flood":
			chunk := []byte(strings.Repeat("x", 1<<20))
			for range 4 << 10 { // 4 GiB, never a newline
				if _, err := out.Write(chunk); err != nil {
					return 1
				}
			}
		case "test.line":
			// An answer line of exactly args.n bytes.
			var a struct{ N int }
			json.Unmarshal(req.Args, &a)
			head := fmt.Sprintf(`{"id":%d,"ok":true,"result":{"pad":"`, id)
			answer(head + strings.Repeat("p", a.N-len(head)-3) + `"}}`)
		case "test.stderr":
			for i := range 20000 {
				fmt.Fprintf(os.Stderr, "stderr line %06d of noise\n", i)
			}
			fmt.Fprintln(os.Stderr, "END-OF-STDERR")
			answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{}}`, id))
		case "test.grandchild":
			// A descendant that holds stdout and stderr and would outlive us.
			pid := spawnSleeper()
			answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{"pid":%d}}`, id, pid))
		case "test.grandchild-exit":
			spawnSleeper()
			return 0
		case "test.orphan-quick":
			// A grandchild in our group whose parent exits first, and which
			// exits soon after: adopted, then a zombie of its adopter.
			sh := exec.Command("/bin/sh", "-c", "(sleep 0.05 </dev/null >/dev/null 2>&1 &)")
			sh.Run()
			time.Sleep(200 * time.Millisecond)
			answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{}}`, id))
		case "test.detached":
			// A descendant in its own session, holding stdout and stderr.
			pid := spawnDetached(false)
			answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{"pid":%d}}`, id, pid))
		case "test.detached-chain":
			// A descendant in its own session that kept the tag, with a
			// child in a session of its own without it (found by its
			// parent link only).
			pid := spawnChain()
			answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{"pid":%d}}`, id, pid))
		case "test.detached-exit", "test.orphan-exit":
			// Exit 0 without an answer, leaving such a descendant behind
			// (orphan: its parent exits first, so it is adopted).
			pid := spawnDetached(req.Op == "test.orphan-exit")
			fmt.Fprintf(os.Stderr, "descendant %d\n", pid)
			return 0
		case "test.pause":
			// test.echo after a pause of args.ms milliseconds.
			var a struct{ MS int }
			json.Unmarshal(req.Args, &a)
			time.Sleep(time.Duration(a.MS) * time.Millisecond)
			resp, _ := echoImpl{}.Do(context.Background(), Request{Op: "test.echo", Args: req.Args, Input: req.Input})
			resp.ID = id
			b, _ := AppendResponse(nil, resp)
			out.Write(b)
		case "test.stopread":
			answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{}}`, id))
			time.Sleep(time.Hour)
		default:
			resp, _ := echoImpl{}.Do(context.Background(), req)
			resp.ID = id
			b, _ := AppendResponse(nil, resp)
			out.Write(b)
		}
	}
}

// escapeGroup moves this process out of its own process group into its
// parent's (conform's: setpgid(0, getpgid(getppid()))), says so on
// standard error with its pid, and hangs (issue 30, item 4).
func escapeGroup() {
	pg, err := syscall.Getpgid(os.Getppid())
	if err == nil {
		err = syscall.Setpgid(0, pg)
	}
	fmt.Fprintf(os.Stderr, "escaped pid %d into group %d (%v)\n", os.Getpid(), pg, err)
	time.Sleep(time.Hour)
}

func spawnSleeper() int {
	cmd := exec.Command(os.Args[0])
	cmd.Env = testeeEnv("sleeper")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "spawn:", err)
		os.Exit(1)
	}
	return cmd.Process.Pid
}

// spawnDetached starts a sleeper in a new session (setsid) that inherits
// stdout and stderr, and returns its pid. With orphan an intermediate
// process starts it and exits, so that the sleeper's parent is gone.
func spawnDetached(orphan bool) int {
	if !orphan {
		return startInSession("sleeper", nil).Process.Pid
	}
	cmd, pid := startReporting("detacher")
	cmd.Wait()
	return pid
}

// spawnChain starts a chainer in a session of its own and returns the pid
// of the untagged sleeper it started.
func spawnChain() int {
	_, pid := startReporting("chainer")
	return pid
}

// startInSession starts behaviour b in a new session, inheriting stdout
// and stderr, with extra (when not nil) as its fd 3.
func startInSession(b string, extra *os.File) *exec.Cmd {
	cmd := exec.Command(os.Args[0])
	cmd.Env = testeeEnv(b)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if extra != nil {
		cmd.ExtraFiles = []*os.File{extra}
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "spawn:", err)
		os.Exit(1)
	}
	return cmd
}

// startReporting starts behaviour b in a new session and returns it with
// the pid it reports on fd 3.
func startReporting(b string) (*exec.Cmd, int) {
	r, w, err := os.Pipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "spawn:", err)
		os.Exit(1)
	}
	cmd := startInSession(b, w)
	w.Close()
	pid, _ := io.ReadAll(r)
	n, _ := strconv.Atoi(string(pid))
	return cmd, n
}

// oneShot is a one-shot testee: the operation selects the behaviour.
func oneShot(op string) int {
	input, _ := io.ReadAll(os.Stdin)
	args := os.Getenv(ArgsEnv)
	out := os.Stdout
	switch op {
	case OpHello:
		fmt.Fprintf(out, `{"ok":true,"result":%s}`+"\n", echoHello)
	case "test.echo":
		fmt.Fprintf(out, `{"id":12345,"ok":true,"result":%s}`+"\n", echoResult(op, json.RawMessage(args), input))
	case "test.pretty":
		fmt.Fprintf(out, "{\n  \"ok\": true,\n  \"result\": {\n    \"n\": %d\n  }\n}\n", len(input))
	case "test.reject":
		fmt.Fprintln(out, `{"ok":false,"code":"TEST_REJECT","detail":"rejected as asked"}`)
		return 1
	case "test.unsupported":
		fmt.Fprintln(out, `{"unsupported":true}`)
	case "test.wrongexit":
		fmt.Fprintln(out, `{"ok":true,"result":{}}`)
		return 1
	case "test.exit3":
		fmt.Fprintln(out, `{"ok":true,"result":{}}`)
		return 3
	case "test.rejectexit0":
		fmt.Fprintln(out, `{"ok":false,"code":"X"}`)
	case "test.hang":
		time.Sleep(time.Hour)
	case "test.escape-group":
		escapeGroup()
	case "test.garbage":
		fmt.Fprintln(out, "garbage")
	case "test.two":
		fmt.Fprintln(out, `{"ok":true,"result":{}}`)
		fmt.Fprintln(out, `{"ok":true,"result":{}}`)
	case "test.empty":
		fmt.Fprintln(os.Stderr, "nothing to say")
	case "test.flood":
		chunk := []byte(strings.Repeat("x", 1<<20))
		for range 4 << 10 {
			if _, err := out.Write(chunk); err != nil {
				return 1
			}
		}
	case "test.signal":
		fmt.Fprintln(out, `{"ok":true,"result":{}}`)
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Hour)
	case "test.grandchild":
		pid := spawnSleeper()
		fmt.Fprintf(out, `{"ok":true,"result":{"pid":%d}}`+"\n", pid)
	case "test.detached":
		pid := spawnDetached(false)
		fmt.Fprintf(out, `{"ok":true,"result":{"pid":%d}}`+"\n", pid)
	default:
		fmt.Fprintln(out, `{"unsupported":true}`)
	}
	return 0
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: trust kill(0)
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

// waitDead waits up to 2 s for pid to disappear.
func waitDead(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if !alive(pid) {
			return
		}
	}
	t.Errorf("process %d still alive", pid)
}
