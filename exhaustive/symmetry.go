package exhaustive

import (
	"strings"

	"github.com/nip-rs/harness/model"
)

// Symmetry reduction. Interchangeable devices (same kind, rules and tie
// policy; client ids of one length) and interchangeable contexts (override
// contexts of one name length, which the budget never makes compete for
// room) can be renamed without changing any behaviour, so a state and its
// renamed image have the same future and the same verdicts, renamed. The
// search stores one state per orbit: the least image under every
// permutation of the devices times every permutation of the contexts,
// comparing rows word by word by the exact byte keys of what the words
// name (never by interned ids, which depend on the order workers met them).
// symmetry_test.go checks that every invariant is symmetric.

type symmetry struct {
	w     *netWorld
	elems []symElem // every group element but the identity
}

// symElem is one renaming: device i becomes dev[i], override context i
// becomes ctx[i], and wire keys follow.
type symElem struct {
	dev  []int
	ctx  []int
	wire map[string]string // renamed wire keys and context ids
	// src is, per word of an image, the word of the row it renames.
	src []int
}

func newSymmetry(w *netWorld) *symmetry {
	s := &symmetry{w: w}
	devPerms := subsetPermutations(w.n, w.net.SymDevices)
	var ctxIdx []int
	for _, c := range w.net.SymContexts {
		ctxIdx = append(ctxIdx, w.ovAt[c])
	}
	ctxPerms := subsetPermutations(len(w.ov), ctxIdx)
	for _, dp := range devPerms {
		for _, cp := range ctxPerms {
			if isIdentity(dp) && isIdentity(cp) {
				continue
			}
			el := symElem{dev: dp, ctx: cp, wire: map[string]string{}}
			for i, c := range w.ov {
				to := w.ov[cp[i]]
				el.wire[c] = to
				el.wire[w.e.rules.Escape(c)] = w.e.rules.Escape(to)
				for _, k := range []model.KeyKind{model.KeyS, model.KeyC, model.KeyB} {
					el.wire[model.OverrideKey(k, c)] = model.OverrideKey(k, to)
				}
			}
			el.src = make([]int, w.Width())
			for d := range w.n {
				el.src[dp[d]], el.src[w.knWord(dp[d])] = d, w.knWord(d)
				for e := range w.n {
					if e != d {
						el.src[w.chWord(dp[d], dp[e])] = w.chWord(d, e)
					}
				}
			}
			s.elems = append(s.elems, el)
		}
	}
	if len(s.elems) >= 1<<16 || w.n >= 1<<8 {
		panic("exhaustive: symmetry group too large for its memo keys") // universes are built in code
	}
	return s
}

// subsetPermutations lists the permutations of 0..n-1 that move only the
// members of set among themselves.
func subsetPermutations(n int, set []int) [][]int {
	var out [][]int
	for _, p := range Permutations(len(set)) {
		perm := make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		for k, i := range set {
			perm[i] = set[p[k]]
		}
		out = append(out, perm)
	}
	return out
}

func isIdentity(p []int) bool {
	for i, x := range p {
		if i != x {
			return false
		}
	}
	return true
}

func (el *symElem) rename(s string) string {
	if r, ok := el.wire[s]; ok {
		return r
	}
	return s
}

// canonical replaces row by the least image of its orbit.
func (s *symmetry) canonical(c *cache, row []int32) { s.canonicalElem(c, row) }

// canonicalElem is canonical that reports which element renamed row into
// its representative, or -1 when row is its own.
func (s *symmetry) canonicalElem(c *cache, row []int32) int {
	nc := s.w.nc(c)
	if len(nc.symRow) != 2*len(row) {
		nc.symRow = make([]int32, 2*len(row))
	}
	best, img := nc.symRow[:len(row)], nc.symRow[len(row):]
	copy(best, row)
	chosen := -1
	for k := range s.elems {
		// The image is built word by word and abandoned at the first
		// word that orders it after the best so far: most images are.
		less := false
		for i := range row {
			x := s.imageWord(c, k, i, row)
			img[i] = x
			if less || x == best[i] {
				continue
			}
			r := s.compareWord(c, i, x, best[i])
			if r > 0 {
				break
			}
			less = r < 0
		}
		if less {
			copy(best, img)
			chosen = k
		}
	}
	copy(row, best)
	return chosen
}

// imageWord is word i of the image of row under element k.
func (s *symmetry) imageWord(c *cache, k, i int, row []int32) int32 {
	w := s.w
	j := s.elems[k].src[i]
	switch {
	case i < w.n:
		return s.mapRep(c, k, j, row[j])
	case i < 2*w.n:
		return s.mapKnow(c, k, row[j])
	}
	return s.mapChan(c, k, row[j])
}

// image writes the image of row under element k into img.
func (s *symmetry) image(c *cache, k int, row, img []int32) {
	w := s.w
	el := &s.elems[k]
	for d := range w.n {
		to := el.dev[d]
		img[to] = s.mapRep(c, k, d, row[d])
		img[w.knWord(to)] = s.mapKnow(c, k, row[w.knWord(d)])
	}
	for src := range w.n {
		for dst := range w.n {
			if src != dst {
				img[w.chWord(el.dev[src], el.dev[dst])] = s.mapChan(c, k, row[w.chWord(src, dst)])
			}
		}
	}
}

// compareWord orders two values of row word i by their keys.
func (s *symmetry) compareWord(c *cache, i int, a, b int32) int {
	w := s.w
	switch {
	case i < w.n:
		return strings.Compare(s.repKey(c, i, a), s.repKey(c, i, b))
	case i < 2*w.n:
		return strings.Compare(w.t.knows.key(a), w.t.knows.key(b))
	}
	return strings.Compare(w.t.chans.key(a), w.t.chans.key(b))
}

func (s *symmetry) repKey(c *cache, dev int, id int32) string {
	nc := s.w.nc(c)
	if int(id) < len(nc.repKey[dev]) {
		if k := nc.repKey[dev][id]; k != "" {
			return k
		}
	}
	k := string(s.w.e.replicaKey(s.w.replica(dev, id)))
	nc.repKey[dev] = grow(nc.repKey[dev], int(id)+1, "")
	nc.repKey[dev][id] = k
	return k
}

// Kinds of memoised renamings.
const (
	symRep = iota
	symKnow
	symAC
	symMsg
	symChan
)

func (s *symmetry) memo(c *cache, kind, k, dev int, id int32, mk func() int32) int32 {
	nc := s.w.nc(c)
	key := symKey(kind, k, dev, id)
	if r, ok := nc.sym.get(key); ok {
		return r
	}
	r := mk()
	nc.sym.put(key, r)
	return r
}

// symKey packs a renaming's memo key into one word: the id in the low 32
// bits, the device in the next 8, the element in the next 16 and the kind
// above them (newSymmetry keeps elements and devices within their fields).
func symKey(kind, k, dev int, id int32) uint64 {
	return uint64(kind)<<56 | uint64(k)<<40 | uint64(dev)<<32 | uint64(uint32(id))
}

// mapRep renames the replica id of device d into device el.dev[d]'s table.
func (s *symmetry) mapRep(c *cache, k, d int, id int32) int32 {
	el := &s.elems[k]
	if isIdentity(el.ctx) && el.dev[d] == d {
		return id
	}
	return s.memo(c, symRep, k, d, id, func() int32 {
		w := s.w
		src := w.replica(d, id)
		to := el.dev[d]
		spec := w.u.Devices[to]
		dst := newReplica(spec, w.e.rules)
		dst.ClientID = src.ClientID[:1] + spec.ClientID[1:] // a reinstalled id keeps its letter
		src.Each(func(ctx string, f uint32, hasF bool, reg model.Reg) {
			_ = dst.Restore(el.rename(ctx), f, hasF, reg) // a legacy source holds no register
		})
		return w.e.internLocked(to, dst)
	})
}

func (s *symmetry) mapAC(c *cache, k int, id int32) int32 {
	el := &s.elems[k]
	if isIdentity(el.dev) || id == s.w.t.empty {
		return id
	}
	return s.memo(c, symAC, k, 0, id, func() int32 {
		return s.w.t.internAC(s.w.t.acs.get(id).renamed(el.dev))
	})
}

func (s *symmetry) mapKnow(c *cache, k int, id int32) int32 {
	return s.memo(c, symKnow, k, 0, id, func() int32 {
		el := &s.elems[k]
		kn := s.w.t.knows.get(id)
		out := know{seq: make([]uint8, len(kn.seq)), ac: make([]int32, len(kn.ac))}
		for i := range kn.seq {
			out.seq[el.ctx[i]] = kn.seq[i]
			out.ac[el.ctx[i]] = s.mapAC(c, k, kn.ac[i])
		}
		return s.w.t.internKnow(out)
	})
}

func (s *symmetry) mapMsg(c *cache, k int, id int32) int32 {
	return s.memo(c, symMsg, k, 0, id, func() int32 {
		w := s.w
		el := &s.elems[k]
		m := w.t.msgs.get(id)
		b := model.Blob{V: m.b.V, ClientID: m.b.ClientID}
		for _, en := range m.b.Contexts {
			b.Contexts = append(b.Contexts, model.Entry{Key: el.rename(en.Key), Value: en.Value})
		}
		b.Contexts = model.SortEntries(b.Contexts)
		out := message{blob: w.e.internBlob(b), b: b, part: m.part, parts: m.parts, tag: make([]int32, len(m.tag))}
		for i := range m.tag {
			out.tag[el.ctx[i]] = s.mapAC(c, k, m.tag[i])
			if m.flags&(1<<i) != 0 {
				out.flags |= 1 << el.ctx[i]
			}
		}
		out.holds, out.floors = w.groups(b)
		return w.t.internMsg(out)
	})
}

func (s *symmetry) mapChan(c *cache, k int, id int32) int32 {
	if id == s.w.t.none {
		return id
	}
	return s.memo(c, symChan, k, 0, id, func() int32 {
		var out []int32
		for _, m := range s.w.t.chans.get(id) {
			out = append(out, s.mapMsg(c, k, m))
		}
		return s.w.t.internChan(out)
	})
}
