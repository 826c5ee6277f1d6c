package probeshare

import (
	"strings"
	"sync"
	"testing"
)

// Cache holds one result per key.
type Cache[T any] struct {
	mu sync.Mutex
	m  map[string]*entry[T]
}

type entry[T any] struct {
	once    sync.Once
	takenBy map[string]bool // top-level tests that read it
	v       T
	err     error
}

// Get is key's result for t: run's, run once for every top-level test
// that has not read key before; a test reading key again gets a fresh run.
// The caller copies what it changes of the value (slices are shared).
func (c *Cache[T]) Get(t testing.TB, key string, run func() (T, error)) (T, error) {
	test, _, _ := strings.Cut(t.Name(), "/")
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*entry[T]{}
	}
	e := c.m[key]
	if e == nil || e.takenBy[test] {
		e = &entry[T]{takenBy: map[string]bool{}}
		c.m[key] = e
	}
	e.takenBy[test] = true
	c.mu.Unlock()
	e.once.Do(func() { e.v, e.err = run() })
	return e.v, e.err
}
