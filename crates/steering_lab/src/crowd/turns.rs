//! A door passed both ways that takes turns, as a game's rule for a narrow
//! door might: one way has it for a run of people, then the other. Not a
//! crowd rule (nobody in the crowd sees the whole door); what such a door
//! does for the crowd, measured in the lab's `doorway-turns`.

/// How close before the door's wall someone is when the door turns and
/// still finishes their way through, in metres: within a step or so of it,
/// already in the door's mouth.
pub const FINISHING: f32 = 0.8;

/// How far past the door's wall a body is through it, in metres: the
/// lab's people's radius.
pub const THROUGH: f32 = super::scenes::RADIUS;

/// How far past the door's wall someone going its way keeps right of way,
/// in metres: out of the door's mouth, where those waiting on that side
/// would push them back into it.
pub const CLEAR: f32 = 2.0;

/// The door's turns: which way has it, and who has right of way there.
#[derive(Debug, Clone, PartialEq)]
pub struct DoorTurns {
    /// How many go through one way before it turns to the other (if anyone
    /// waits there).
    run: usize,
    /// The way that has the door: +1 or −1 (the side people come from, as
    /// [`DoorTurns::step`] takes it), 0 before anyone has come.
    way: f32,
    /// How many have gone through that way since it had the door.
    through: usize,
    /// Whether it is turning: nobody new goes, and it turns once those
    /// finishing are through.
    turning: bool,
    /// Whether each person has gone through.
    crossed: Vec<bool>,
    /// Whether each is finishing their way through as the door turns.
    finishing: Vec<bool>,
}

impl DoorTurns {
    /// A door letting `run` people (at least one) through one way before
    /// it turns, for a scene of `people`.
    pub fn new(run: usize, people: usize) -> Self {
        Self {
            run: run.max(1),
            way: 0.0,
            through: 0,
            turning: false,
            crossed: vec![false; people],
            finishing: vec![false; people],
        }
    }

    /// The way that has the door: +1 or −1, 0 before anyone has come.
    pub fn way(&self) -> f32 {
        self.way
    }

    /// One step. `sides[i]` is the side person `i` comes to the door from
    /// (+1 or −1; 0 for one who does not pass it), `past[i]` how far past
    /// the door's wall they are (negative before it). Writes into
    /// `right_of_way[i]` whether they have it: those of the way that has
    /// the door not yet through, those finishing their way as it turns,
    /// and those through until [`CLEAR`] past it.
    ///
    /// The door starts with the way of whoever is nearest it (the first
    /// such, on a tie), and turns once its way has had its run, or has
    /// nobody left to come, while someone of the other way has yet to go
    /// through; those of the old way within [`FINISHING`] of the wall, or
    /// in the door, then go on until their bodies are [`THROUGH`] it.
    pub fn step(&mut self, sides: &[f32], past: &[f32], right_of_way: &mut [bool]) {
        let people = 0..self
            .crossed
            .len()
            .min(sides.len())
            .min(past.len())
            .min(right_of_way.len());
        if self.way == 0.0 {
            let nearest = people
                .clone()
                .filter(|&i| sides[i] != 0.0 && past[i].is_finite())
                .max_by(|&a, &b| past[a].total_cmp(&past[b]).then(b.cmp(&a)));
            self.way = nearest.map_or(0.0, |i| sides[i].signum());
        }
        if self.way == 0.0 {
            // Nobody comes to the door.
            for i in people {
                right_of_way[i] = false;
            }
            return;
        }
        for i in people.clone() {
            if sides[i] != 0.0 && !self.crossed[i] && past[i] > 0.0 {
                self.crossed[i] = true;
                self.through += usize::from(sides[i] == self.way);
            }
        }
        let to_come = |way: f32| people.clone().any(|i| sides[i] == way && !self.crossed[i]);
        if !self.turning && (self.through >= self.run || !to_come(self.way)) && to_come(-self.way) {
            self.turning = true;
            for i in people.clone() {
                self.finishing[i] =
                    sides[i] == self.way && past[i] > -FINISHING && past[i] < THROUGH;
            }
        }
        if self.turning {
            for i in people.clone() {
                self.finishing[i] &= past[i] < THROUGH;
            }
            if !self.finishing.iter().any(|&f| f) {
                self.way = -self.way;
                self.through = 0;
                self.turning = false;
            }
        }
        for i in people {
            let going = sides[i] == self.way && !self.turning && !self.crossed[i];
            let clearing = self.crossed[i] && past[i] < CLEAR;
            right_of_way[i] = sides[i] != 0.0 && (going || self.finishing[i] || clearing);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three from the west (+1) and one from the east, in runs of two.
    #[test]
    fn the_door_turns_after_its_run_once_those_in_its_mouth_are_through() {
        let sides = [1.0, 1.0, 1.0, -1.0];
        let mut door = DoorTurns::new(2, 4);
        let mut way = [false; 4];
        // The nearest is from the west: the west has the door.
        door.step(&sides, &[-1.0, -2.0, -0.9, -3.0], &mut way);
        assert_eq!(door.way(), 1.0);
        assert_eq!(way, [true, true, true, false]);
        // Two through: it turns; the third, in the door's mouth, finishes.
        door.step(&sides, &[0.1, 0.2, -0.5, -3.0], &mut way);
        assert_eq!(door.way(), 1.0);
        assert_eq!(way, [true, true, true, false]);
        // The third's body through the wall: the east has the door; the
        // first two keep right of way until clear of its mouth.
        door.step(&sides, &[2.5, 1.0, 0.9, -2.0], &mut way);
        assert_eq!(door.way(), -1.0);
        assert_eq!(way, [false, true, true, true]);
    }

    /// One not yet in the door's mouth when it turns waits for the other
    /// way; once the other way has nobody left, it turns back.
    #[test]
    fn one_not_in_the_mouth_waits_its_turn() {
        let sides = [1.0, 1.0, 1.0, -1.0];
        let mut door = DoorTurns::new(2, 4);
        let mut way = [false; 4];
        door.step(&sides, &[-1.0, -2.0, -4.0, -3.0], &mut way);
        door.step(&sides, &[0.6, 0.7, -3.0, -2.0], &mut way);
        assert_eq!(door.way(), -1.0);
        assert_eq!(way, [true, true, false, true]);
        // The east's one through: back to the west, for the last.
        door.step(&sides, &[1.0, 1.5, -2.5, 0.6], &mut way);
        assert_eq!(door.way(), 1.0);
        assert_eq!(way, [true, true, true, true]);
        // Nobody of the other way to come: the door stays.
        door.step(&sides, &[3.0, 3.0, 0.1, 3.0], &mut way);
        assert_eq!(door.way(), 1.0);
        assert_eq!(way, [false, false, true, false]);
    }

    /// One pushed through against the door's way does not count towards
    /// its run.
    #[test]
    fn only_the_way_that_has_the_door_counts() {
        let sides = [1.0, 1.0, 1.0, -1.0, -1.0];
        let mut door = DoorTurns::new(2, 5);
        let mut way = [false; 5];
        door.step(&sides, &[-1.0, -2.0, -3.0, -1.5, -3.0], &mut way);
        door.step(&sides, &[0.1, -1.5, -2.5, 0.1, -3.0], &mut way);
        assert_eq!(door.way(), 1.0);
        assert_eq!(way, [true, true, true, true, false]);
    }

    /// Those who do not pass the door never have its right of way; of two
    /// as near it, the first listed has it first; slices shorter than the
    /// people are taken as far as they go, without a panic.
    #[test]
    fn those_not_passing_it_have_no_say() {
        let mut door = DoorTurns::new(0, 3);
        let mut way = [true; 3];
        door.step(&[0.0, 0.0, 0.0], &[1.0, f32::NAN, -1.0], &mut way);
        assert_eq!(door.way(), 0.0);
        assert_eq!(way, [false; 3]);
        // Two as near: the first listed.
        let mut way = [false; 2];
        door.step(&[-1.0, 1.0], &[-2.0, -2.0], &mut way);
        assert_eq!(door.way(), -1.0);
        assert_eq!(way, [true, false]);
        let mut way = [false; 1];
        door.step(&[-1.0, 1.0], &[-1.0, -2.0], &mut way);
        assert_eq!(way, [true]);
    }
}
