package model

// RelayRequirement names one of the five requirements Full-State Load
// places on a relay; the simulator's profiles and the conformance probe
// report against the same names.
type RelayRequirement string

// The five relay requirements of Full-State Load.
const (
	ReqPrefix  RelayRequirement = "R1 newest-first prefix"
	ReqCap     RelayRequirement = "R2 non-decreasing cap"
	ReqFloor   RelayRequirement = "R3 floor L=2"
	ReqPush    RelayRequirement = "R4 push delivery"
	ReqBarrier RelayRequirement = "R5 delivery barrier"
)
