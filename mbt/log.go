package mbt

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// The bounds of a log: larger input is refused before anything runs.
const (
	MaxLogBytes   = 8 << 20
	MaxLogRecords = 20000
	maxLineBytes  = 1 << 20
)

// LogRecord is one line of a client's log after the first (see the
// package doc, "Logs").
type LogRecord struct {
	Line   int // 1-based line in the file
	Step   int
	Device string
	// Exactly one of Action, Received, Published and Load is set.
	Action    *LogAction
	Received  *LogBlob
	Published []LogBlob
	Load      *LogLoad
	// State is the device's view after the record, when logged.
	State map[string]ctxView
	Raw   string // the line as written
}

// LogAction is a local action as the adapter protocol sends it.
type LogAction struct {
	Action string `json:"action"`
	Ctx    string `json:"ctx,omitempty"`
	Value  uint32 `json:"value,omitempty"`
}

// LogBlob is a blob as the adapter protocol's delivery carries it: the
// sending device's name (optional in a log) and the entries.
type LogBlob struct {
	ClientID string            `json:"client_id,omitempty"`
	Contexts map[string]uint32 `json:"contexts"`
}

// Log is a client's log, read and checked for form.
type Log struct {
	Devices []string // the hosted devices the first line names
	Records []LogRecord
	First   string // the first line as written
}

// LogError is a log that is not one: the line (1-based; 0 for the whole
// file) and what is wrong there.
type LogError struct {
	Line int
	Msg  string
}

func (e *LogError) Error() string {
	if e.Line == 0 {
		return "log: " + e.Msg
	}
	return fmt.Sprintf("log line %d: %s", e.Line, e.Msg)
}

// IsLogError reports whether err is a malformed log.
func IsLogError(err error) bool {
	var e *LogError
	return errors.As(err, &e)
}

// ReadLog reads an NDJSON log and checks its form: the init line, then
// records whose steps increase, each naming a hosted device and exactly one
// of action, received, published and load, with an optional state (not on
// a load record). It does not
// consult the model. Any error is a *LogError naming the line.
func ReadLog(r io.Reader) (*Log, error) {
	lr := io.LimitReader(r, MaxLogBytes+1)
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	lg := &Log{}
	n, total, last := 0, 0, -1
	for sc.Scan() {
		n++
		total += len(sc.Bytes()) + 1
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue // a blank line (a trailing newline) says nothing
		}
		if len(lg.Records) >= MaxLogRecords {
			return nil, &LogError{n, fmt.Sprintf("more than %d records", MaxLogRecords)}
		}
		if lg.Devices == nil {
			ds, err := readInit(line)
			if err != nil {
				return nil, &LogError{n, err.Error()}
			}
			lg.Devices, lg.First, last = ds, line, 0
			continue
		}
		rec, err := readRecord(line, lg.Devices)
		if err != nil {
			return nil, &LogError{n, err.Error()}
		}
		if rec.Step <= last {
			return nil, &LogError{n, fmt.Sprintf("step %d does not follow step %d (steps must increase)", rec.Step, last)}
		}
		last = rec.Step
		rec.Line, rec.Raw = n, line
		lg.Records = append(lg.Records, rec)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &LogError{n + 1, fmt.Sprintf("longer than %d bytes", maxLineBytes)}
		}
		return nil, &LogError{n + 1, err.Error()}
	}
	if total > MaxLogBytes {
		return nil, &LogError{0, fmt.Sprintf("larger than %d bytes", MaxLogBytes)}
	}
	if lg.Devices == nil {
		return nil, &LogError{0, `empty: the first line must be {"step": 0, "init": {"devices": [...]}}`}
	}
	return lg, nil
}

// strict decodes one JSON object refusing unknown members and trailing
// data.
func strict(line string, v any) error {
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not a record of the log: %v", err)
	}
	if dec.More() {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}

func readInit(line string) ([]string, error) {
	var in struct {
		Step *int `json:"step"`
		Init *struct {
			Devices []string `json:"devices"`
		} `json:"init"`
	}
	if err := strict(line, &in); err != nil {
		return nil, err
	}
	if in.Step == nil || *in.Step != 0 || in.Init == nil {
		return nil, errors.New(`the first line must be {"step": 0, "init": {"devices": [...]}}`)
	}
	if len(in.Init.Devices) == 0 {
		return nil, errors.New("init names no device")
	}
	ds := slices.Clone(in.Init.Devices)
	for i, d := range ds {
		if _, err := deviceIndex(d); err != nil {
			return nil, fmt.Errorf("init: %v", err)
		}
		if slices.Contains(ds[:i], d) {
			return nil, fmt.Errorf("init names device %s twice", d)
		}
	}
	return ds, nil
}

// deviceIndex is the index of a device name d0, d1, ...
func deviceIndex(d string) (int, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(d, "d"))
	if !strings.HasPrefix(d, "d") || err != nil || n < 0 || n > 63 || DeviceVar(n) != d {
		return 0, fmt.Errorf("device %q is not a device name (d0, d1, ...)", d)
	}
	return n, nil
}

func readRecord(line string, hosted []string) (LogRecord, error) {
	var in struct {
		Step      *int                `json:"step"`
		Device    string              `json:"device"`
		Action    *LogAction          `json:"action"`
		Received  *LogBlob            `json:"received"`
		Published json.RawMessage     `json:"published"`
		Load      json.RawMessage     `json:"load"`
		State     *map[string]ctxView `json:"state"`
	}
	var rec LogRecord
	if err := strict(line, &in); err != nil {
		return rec, err
	}
	if in.Step == nil || *in.Step < 0 {
		return rec, errors.New("no step (want a non-negative integer)")
	}
	if !slices.Contains(hosted, in.Device) {
		return rec, fmt.Errorf("device %q is not one the init line hosts %v", in.Device, hosted)
	}
	rec.Step, rec.Device, rec.Action, rec.Received = *in.Step, in.Device, in.Action, in.Received
	kinds := 0
	if in.Action != nil {
		kinds++
		if in.Action.Action == "" {
			return rec, errors.New("action: no action name")
		}
	}
	if in.Received != nil {
		kinds++
		if in.Received.Contexts == nil {
			return rec, errors.New("received: no contexts")
		}
		if in.Received.ClientID != "" {
			if _, err := deviceIndex(in.Received.ClientID); err != nil {
				return rec, fmt.Errorf("received: client_id: %v", err)
			}
		}
	}
	if in.Published != nil {
		kinds++
		ps, err := readPublished(in.Published)
		if err != nil {
			return rec, fmt.Errorf("published: %v", err)
		}
		rec.Published = ps
	}
	if in.Load != nil {
		kinds++
		ld, err := readLoad(in.Load)
		if err != nil {
			return rec, fmt.Errorf("load: %v", err)
		}
		rec.Load = ld
	}
	if kinds != 1 {
		return rec, errors.New("want exactly one of action, received, published and load")
	}
	if in.State != nil && rec.Load != nil {
		// A load collects coordinates; what the device shows changes
		// when it merges them, which is a receipt of its own.
		return rec, errors.New("state: a load record carries no state")
	}
	if in.State != nil {
		if *in.State == nil {
			return rec, errors.New("state: want an object of contexts")
		}
		rec.State = *in.State
	}
	return rec, nil
}

// readPublished is one blob or a list of them (one per coordinate part).
func readPublished(raw json.RawMessage) ([]LogBlob, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '[' {
		var bs []LogBlob
		if err := json.Unmarshal(raw, &bs); err != nil {
			return nil, err
		}
		for _, b := range bs {
			if b.Contexts == nil {
				return nil, errors.New("a part has no contexts")
			}
		}
		return bs, nil
	}
	var b LogBlob
	if err := json.Unmarshal(raw, &b); err != nil {
		return nil, err
	}
	if b.Contexts == nil {
		return nil, errors.New("no contexts")
	}
	return []LogBlob{b}, nil
}
