//! How a state reads in a counterexample: one line, times relative to store time (`+0`).

use core::fmt;

use crate::bounds::{MAX_HOLDERS, NOW};
use crate::holder::{Holder, Phase};
use crate::model::State;
use crate::store::{DEAD, Lease, Store};

/// A time as an offset from store time.
struct At(u8);

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+}", i16::from(self.0) - i16::from(NOW))
    }
}

/// A mark: none, or a time.
struct Mark(u8);

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.write_str("none"),
            ms => At(ms).fmt(f),
        }
    }
}

/// A lease by its holder and number (`h0.1`: holder 0's second), or `dead`.
struct L(Lease);

impl fmt::Display for L {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == DEAD {
            return f.write_str("dead");
        }
        let n = usize::from(self.0);
        write!(
            f,
            "h{}.{}",
            n / crate::bounds::MAX_GRANTS,
            n % crate::bounds::MAX_GRANTS
        )
    }
}

impl fmt::Display for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "store: mark {}, owner ", Mark(self.hwm))?;
        match self.owner {
            Some(lease) => write!(f, "{}", L(lease))?,
            None => f.write_str("none")?,
        }
        for (lease, &expiry) in self.expiry.iter().enumerate() {
            if expiry != 0 {
                let lease = Lease::try_from(lease).unwrap_or(DEAD);
                write!(f, ", {} until {}", L(lease), At(expiry))?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Holder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "clock {}, ", At(self.clock))?;
        match self.phase {
            Phase::Idle => f.write_str("idle")?,
            Phase::Claiming { lease } => write!(f, "claiming with {}", L(lease))?,
            Phase::Waiting { lease, floor } => {
                write!(f, "waiting above {} with {}", Mark(floor), L(lease))?;
            }
            Phase::Renewed {
                lease,
                floor,
                valid_until,
            } => write!(
                f,
                "renewed {} until {}, above {}",
                L(lease),
                At(valid_until),
                Mark(floor)
            )?,
            Phase::Holding {
                lease,
                hwm,
                valid_until,
                ceiling,
                unanswered,
            } => {
                write!(
                    f,
                    "holding {} until {}, mark {}, ",
                    L(lease),
                    At(valid_until),
                    Mark(hwm)
                )?;
                match ceiling {
                    0 => f.write_str("shut")?,
                    ms => write!(f, "ceiling {}", At(ms))?,
                }
                if unanswered != 0 {
                    f.write_str(", unanswered")?;
                    for mark in (0..64u8).filter(|&m| unanswered & (1 << m) != 0) {
                        write!(f, " {}", Mark(mark))?;
                    }
                }
            }
        }
        if self.floor != 0 {
            write!(f, ", floor {}", Mark(self.floor))?;
        }
        if let Some(late) = self.late {
            write!(
                f,
                ", late {} -> {} with {}",
                Mark(late.expected),
                Mark(late.new),
                L(late.lease)
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.store)?;
        for h in 0..MAX_HOLDERS {
            if self.holders[h] == Holder::new(NOW) && self.issued[h] == 0 {
                continue;
            }
            write!(f, "\n    h{h}: {}", self.holders[h])?;
            if self.issued[h] != 0 {
                f.write_str(", issued in")?;
                for ms in (0..64u8).filter(|&ms| self.issued[h] & (1 << ms) != 0) {
                    write!(f, " {}", At(ms))?;
                }
            }
        }
        if self.duplicate {
            f.write_str("\n    two holders issued in one millisecond")?;
        }
        if self.lapsed {
            f.write_str("\n    a holder issued after its lease's time ran out at the store")?;
        }
        Ok(())
    }
}
