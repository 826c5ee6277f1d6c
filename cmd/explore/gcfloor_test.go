package main

import (
	"testing"

	"github.com/nip-rs/harness/internal/gcfloor/floortest"
)

func TestMain(m *testing.M) { floortest.Main(m) }
