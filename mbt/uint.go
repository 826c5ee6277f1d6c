package mbt

import "math/big"

func newUint(n uint64) *big.Int { return new(big.Int).SetUint64(n) }
