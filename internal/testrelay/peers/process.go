package peers

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// process is a peer running as a subprocess.
type process struct {
	url   string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	tail  *tailBuffer
	done  chan struct{} // closed once cmd.Wait returned
	err   error         // cmd.Wait's error, set before done is closed
}

// startProcess starts argv and waits at most timeout for the websocket
// URL on the first line of its stdout. The process's stdin stays open
// until stop: the peer programs exit when it closes, which also happens
// when this process dies.
func startProcess(argv []string, timeout time.Duration) (*process, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	p := &process{cmd: cmd, tail: &tailBuffer{max: 4096}, done: make(chan struct{})}
	cmd.Stderr = p.tail
	// A child the peer left behind holding stderr must not hold Wait.
	cmd.WaitDelay = time.Second
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	lines := make(chan string, 1)
	go func() {
		// One goroutine reads stdout to its end and only then waits:
		// Wait closes the pipe, and a line not yet read would be lost.
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n')
		lines <- strings.TrimSpace(line)
		_, _ = io.Copy(io.Discard, r) // a full pipe must never block the peer
		p.err = cmd.Wait()
		close(p.done)
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case p.url = <-lines:
	case <-timer.C:
		_ = p.stop(0) // it is not serving: no grace
		return nil, fmt.Errorf("%s printed no URL within %v; stderr: %s", argv[0], timeout, p.tail)
	}
	if !strings.HasPrefix(p.url, "ws://127.0.0.1:") {
		got := p.url
		err := p.stop(0)
		return nil, fmt.Errorf("%s printed %q, not its ws://127.0.0.1 URL (%v)", argv[0], got, err)
	}
	return p, nil
}

// stop closes the process's stdin and waits for it to exit, killing it
// after timeout. An exit before stop, or other than a clean one on
// request, is an error with what the process last wrote on stderr: a peer
// that crashed during a test must not pass unnoticed.
func (p *process) stop(timeout time.Duration) error {
	select {
	case <-p.done: // it ended before it was asked to, cleanly or not
		return fmt.Errorf("exited before it was stopped (%v); stderr: %s", p.err, p.tail)
	default:
	}
	_ = p.stdin.Close()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-p.done:
		return exitError(p.err, "exited uncleanly when stopped", p.tail)
	case <-timer.C:
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("did not exit within %v of its stdin closing; killed; stderr: %s", timeout, p.tail)
	}
}

func exitError(err error, what string, tail *tailBuffer) error {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee):
		return fmt.Errorf("%s (%v); stderr: %s", what, ee, tail)
	}
	return err
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.b) == 0 {
		return "(nothing)"
	}
	return strings.TrimSpace(string(t.b))
}
