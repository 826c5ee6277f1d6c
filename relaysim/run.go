package relaysim

import "github.com/nip-rs/harness/model"

// Run drives a load over a connection with no interference: the relay
// processes the client's messages in the order sent, queued pushes go out
// as soon as they exist (delayed ones once nothing else is pending), and
// every relay message is fed to the load, until nothing is left to
// exchange. It returns the load's result.
func Run(l *model.Load, c *Conn) model.LoadResult {
	c.Send(l.Start()...)
	for {
		switch {
		case c.Outbound() > 0:
			m, _ := c.Next()
			c.Send(l.Feed(m)...)
		case c.Pushes() > 0 && c.r.prof.Push != PushDelayed:
			c.Flush(c.Pushes())
		case c.Inbound() > 0 && !c.Lost():
			_ = c.Process(0)
			c.Register() // with nothing else happening, registration is immediate
		case c.Pushes() > 0:
			c.Flush(c.Pushes()) // delayed pushes go out last
		default:
			return l.Result()
		}
	}
}
