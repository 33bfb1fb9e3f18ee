//! A narrow door passed both ways that takes turns, as a game's rule for
//! it might: one way has it for a run of people, then the other. Nobody in
//! a crowd sees the whole door, so no local rule makes these turns; the
//! door does, and gives those of the way that has it right of way. In the
//! crowd lab's two-way door (a 2 m door, 25 a side) it brought 33 and 34 of
//! 50 through within three times their straight line, against 24 left to
//! the crowd (BENCHMARKS.md, "Crowds").
//!
//! The door judges who is coming from where they are and which way they
//! mean to go ([`DoorLine::coming`]), not from their routes: measured as
//! good.

use crate::math::{Vector, direction};

/// How far before the door's wall someone is, in their body's radii, when
/// the door turns and they still finish their way through: already in the
/// door's mouth, within a step or so of it (0.8 m for people 1 m across).
pub const FINISHING: f32 = 1.6;

/// How far past the door's wall, in body radii, someone who went through
/// keeps right of way: out of the door's mouth, where those waiting on that
/// side would push them back into it (2 m for people 1 m across).
pub const CLEAR: f32 = 4.0;

/// Someone coming to the door heads for its wall within this cosine of
/// straight across it (60°).
const HEADING_ACROSS: f32 = 0.5;

/// A door's opening in its wall: the line between its two posts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DoorLine {
    /// The middle of the opening.
    pub middle: Vector,
    /// A unit vector from the first post to the second.
    pub along: Vector,
    /// A unit vector across the wall: `along` turned a quarter to the left.
    pub across: Vector,
    /// Half the opening's width.
    pub half_width: f32,
}

impl DoorLine {
    /// The opening between two posts, or `None` if they are not finite or
    /// are the same point.
    pub fn between(a: Vector, b: Vector) -> Option<Self> {
        let along = direction(b - a);
        if !(a.is_finite() && b.is_finite()) || along == Vector::ZERO {
            return None;
        }
        Some(Self {
            middle: (a + b) * 0.5,
            along,
            across: along.perp(),
            half_width: a.distance(b) * 0.5,
        })
    }

    /// The two posts: the ends of the opening, in the order given to
    /// [`between`](Self::between).
    pub fn posts(&self) -> [Vector; 2] {
        let half = self.along * self.half_width;
        [self.middle - half, self.middle + half]
    }

    /// Which way someone at `at` goes through the door: +1 along `across`
    /// (they stand behind it), −1 against it; 0 on the wall's line or for a
    /// place that is not finite.
    pub fn way_from(&self, at: Vector) -> i8 {
        let side = (self.middle - at).dot(self.across);
        if side > 0.0 {
            1
        } else if side < 0.0 {
            -1
        } else {
            0
        }
    }

    /// How far `at` is past the door's wall for one going through it the
    /// way `from`: negative before it.
    pub fn past(&self, at: Vector, from: i8) -> f32 {
        (at - self.middle).dot(self.across) * f32::from(from)
    }

    /// If someone at `at` with a body of `radius`, meaning to go along
    /// `heading` (a unit vector, zero if nowhere), is coming to the door
    /// from within `reach` of its middle: the way they go through it.
    /// Coming means heading for its wall, within 60° of straight across,
    /// along a line that meets the wall in the opening (give or take the
    /// body's radius).
    pub fn coming(&self, at: Vector, heading: Vector, radius: f32, reach: f32) -> Option<i8> {
        let from = self.way_from(at);
        let past = self.past(at, from);
        // A NaN anywhere fails one of these.
        let near = at.distance_squared(self.middle) <= reach * reach;
        let closing = heading.dot(self.across) * f32::from(from);
        if from == 0 || !near || closing.is_nan() || closing < HEADING_ACROSS {
            return None;
        }
        let meets = at + heading * (-past / closing);
        let aside = (meets - self.middle).dot(self.along).abs();
        (aside <= self.half_width + radius).then_some(from)
    }
}

/// Someone the door sees: coming, going through, or just through. The
/// door's caller keeps each record from step to step (by `key`) and
/// updates `past`; the door sets the rest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Passer {
    /// Who it is: a key the caller keeps the same from step to step.
    pub key: u64,
    /// The way they go through: +1 along the door's `across`, −1 against.
    pub from: i8,
    /// How far past the door's wall they are, negative before it.
    pub past: f32,
    /// Their body's radius.
    pub radius: f32,
    /// Whether they have gone through (their centre past the wall).
    pub crossed: bool,
    /// Whether they are finishing their way through as the door turns.
    pub finishing: bool,
    /// Whether the door gives them right of way in this step.
    pub right_of_way: bool,
}

impl Passer {
    /// Someone just seen coming the way `from`, `past` the wall.
    pub fn coming(key: u64, from: i8, past: f32, radius: f32) -> Self {
        Self {
            key,
            from,
            past,
            radius,
            crossed: false,
            finishing: false,
            right_of_way: false,
        }
    }

    /// Whether the door still has a say for them: not yet through, or
    /// through and not yet [`CLEAR`] of it.
    pub fn still_near(&self) -> bool {
        !self.crossed || self.past < CLEAR * self.radius
    }
}

/// The door's turns: which way has it, and how far through its run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DoorTurns {
    /// The way that has the door: +1 or −1 (as [`Passer::from`]), 0 while
    /// nobody is coming.
    way: i8,
    /// How many have gone through that way since it had the door.
    through: u32,
    /// Whether it is turning: nobody new goes, and it turns once those
    /// finishing are through.
    turning: bool,
}

impl Default for DoorTurns {
    fn default() -> Self {
        Self::new()
    }
}

impl DoorTurns {
    /// A door nobody has come to yet.
    pub const fn new() -> Self {
        Self {
            way: 0,
            through: 0,
            turning: false,
        }
    }

    /// The way that has the door: +1 or −1, 0 while nobody is coming.
    pub fn way(&self) -> i8 {
        self.way
    }

    /// One step of the door, letting `run` (at least one) through one way
    /// before the other, with everyone it sees in `passers` (each `past`
    /// where they are now). Sets each one's `right_of_way`: those of the way
    /// that has the door not yet through, those finishing their way as it
    /// turns, and those through until [`CLEAR`] of it.
    ///
    /// The door starts with the way of whoever is nearest it (of two as
    /// near, the lower key), and turns once its way has had its run, or
    /// has nobody left to come, while someone of the other way is still to
    /// come; those of the old way within [`FINISHING`] radii of the wall,
    /// or in the door, then go on until their bodies are through it. With
    /// nobody to see, it waits for the next to come.
    pub fn step(&mut self, run: u32, passers: &mut [Passer]) {
        let run = run.max(1);
        for p in passers.iter_mut() {
            if !p.crossed && p.past > 0.0 {
                p.crossed = true;
                self.through += u32::from(p.from == self.way);
            }
        }
        let to_come =
            |way: i8, passers: &[Passer]| passers.iter().any(|p| p.from == way && !p.crossed);
        if self.way == 0 || !passers.iter().any(|p| p.from == self.way || p.finishing) {
            // Nobody of the way that had it is left near: it starts again
            // with whoever is nearest.
            *self = Self::new();
            self.way = passers
                .iter()
                .filter(|p| !p.crossed && p.past.is_finite())
                .max_by(|a, b| a.past.total_cmp(&b.past).then(b.key.cmp(&a.key)))
                .map_or(0, |p| p.from);
        }
        if self.way != 0
            && !self.turning
            && (self.through >= run || !to_come(self.way, passers))
            && to_come(-self.way, passers)
        {
            self.turning = true;
            for p in passers.iter_mut() {
                p.finishing =
                    p.from == self.way && p.past > -FINISHING * p.radius && p.past < p.radius;
            }
        }
        if self.turning {
            for p in passers.iter_mut() {
                p.finishing &= p.past < p.radius;
            }
            if !passers.iter().any(|p| p.finishing) {
                self.way = -self.way;
                self.through = 0;
                self.turning = false;
            }
        }
        for p in passers.iter_mut() {
            let going = p.from == self.way && !self.turning && !p.crossed;
            let clearing = p.crossed && p.past < CLEAR * p.radius;
            p.right_of_way = self.way != 0 && (going || p.finishing || clearing);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// People 1 m across (radius 0.5), by their `from` and `past`.
    fn passers(people: &[(i8, f32)]) -> Vec<Passer> {
        people
            .iter()
            .enumerate()
            .map(|(key, &(from, past))| Passer::coming(key as u64, from, past, 0.5))
            .collect()
    }

    /// Moves everyone to `past` and steps the door.
    fn step(door: &mut DoorTurns, run: u32, people: &mut [Passer], past: &[f32]) -> Vec<bool> {
        for (p, &past) in people.iter_mut().zip(past) {
            p.past = past;
        }
        door.step(run, people);
        people.iter().map(|p| p.right_of_way).collect()
    }

    /// Three from one side (+1) and one from the other, in runs of two.
    #[test]
    fn the_door_turns_after_its_run_once_those_in_its_mouth_are_through() {
        let mut people = passers(&[(1, 0.0), (1, 0.0), (1, 0.0), (-1, 0.0)]);
        let mut door = DoorTurns::new();
        // The nearest comes along +1: that way has the door.
        let way = step(&mut door, 2, &mut people, &[-1.0, -2.0, -0.9, -3.0]);
        assert_eq!(door.way(), 1);
        assert_eq!(way, [true, true, true, false]);
        // Two through: it turns; the third, in the door's mouth, finishes.
        let way = step(&mut door, 2, &mut people, &[0.1, 0.2, -0.5, -3.0]);
        assert_eq!(door.way(), 1);
        assert_eq!(way, [true, true, true, false]);
        // The third's body through the wall: the other way has the door;
        // the first two keep right of way until clear of its mouth.
        let way = step(&mut door, 2, &mut people, &[2.5, 1.0, 0.9, -2.0]);
        assert_eq!(door.way(), -1);
        assert_eq!(way, [false, true, true, true]);
    }

    /// One not yet in the door's mouth when it turns waits for the other
    /// way; once the other way has nobody left, it turns back.
    #[test]
    fn one_not_in_the_mouth_waits_its_turn() {
        let mut people = passers(&[(1, 0.0), (1, 0.0), (1, 0.0), (-1, 0.0)]);
        let mut door = DoorTurns::new();
        step(&mut door, 2, &mut people, &[-1.0, -2.0, -4.0, -3.0]);
        let way = step(&mut door, 2, &mut people, &[0.6, 0.7, -3.0, -2.0]);
        assert_eq!(door.way(), -1);
        assert_eq!(way, [true, true, false, true]);
        // The other way's one through: back to the first, for the last.
        let way = step(&mut door, 2, &mut people, &[1.0, 1.5, -2.5, 0.6]);
        assert_eq!(door.way(), 1);
        assert_eq!(way, [true, true, true, true]);
        // Nobody of the other way to come: the door stays.
        let way = step(&mut door, 2, &mut people, &[3.0, 3.0, 0.1, 3.0]);
        assert_eq!(door.way(), 1);
        assert_eq!(way, [false, false, true, false]);
    }

    /// One pushed through against the door's way does not count towards
    /// its run.
    #[test]
    fn only_the_way_that_has_the_door_counts() {
        let mut people = passers(&[(1, 0.0), (1, 0.0), (1, 0.0), (-1, 0.0), (-1, 0.0)]);
        let mut door = DoorTurns::new();
        step(&mut door, 2, &mut people, &[-1.0, -2.0, -3.0, -1.5, -3.0]);
        let way = step(&mut door, 2, &mut people, &[0.1, -1.5, -2.5, 0.1, -3.0]);
        assert_eq!(door.way(), 1);
        assert_eq!(way, [true, true, true, true, false]);
    }

    /// With nobody near, nobody has right of way and the door waits; of two
    /// as near, the lower key has it first; once the way that had it has
    /// gone, the next to come has it.
    #[test]
    fn the_nearest_has_it_first_and_an_empty_door_waits() {
        let mut door = DoorTurns::new();
        door.step(0, &mut []);
        assert_eq!(door.way(), 0);
        let mut people = passers(&[(-1, 0.0), (1, 0.0)]);
        let way = step(&mut door, 1, &mut people, &[-2.0, -2.0]);
        assert_eq!(door.way(), -1);
        assert_eq!(way, [true, false]);
        // A place that is not finite is nobody's nearest.
        let mut door = DoorTurns::new();
        let way = step(&mut door, 1, &mut people, &[f32::NAN, -2.0]);
        assert_eq!(door.way(), 1);
        assert_eq!(way, [false, true]);
        // Only the other way's one left: it has the door.
        let mut alone = vec![people[0]];
        let way = step(&mut door, 1, &mut alone, &[-1.0]);
        assert_eq!(door.way(), -1);
        assert_eq!(way, [true]);
    }

    /// Once everyone of the way that had it is gone, the door starts again:
    /// it waits with nobody near, and the nearest of those who come next has
    /// it, however far through its run the old way was.
    #[test]
    fn a_door_left_empty_starts_again_with_the_nearest() {
        let mut door = DoorTurns::new();
        let mut first = passers(&[(1, 0.0)]);
        step(&mut door, 2, &mut first, &[-1.0]);
        step(&mut door, 2, &mut first, &[0.5]);
        assert_eq!(door.way(), 1);
        // Clear of the door and out of its sight: nobody has it.
        door.step(2, &mut []);
        assert_eq!(door.way(), 0);
        // One more of the old way comes, and one of the other way nearer.
        let mut next = passers(&[(1, 0.0), (-1, 0.0)]);
        let way = step(&mut door, 2, &mut next, &[-2.0, -1.0]);
        assert_eq!(door.way(), -1);
        assert_eq!(way, [false, true]);
    }

    /// Coming: heading for the opening, within 60° of straight across, from
    /// within reach; not along the wall, nor for the wall beside it.
    #[test]
    fn coming_is_heading_for_the_opening() {
        // A 2 m door in a wall along y, its across +x.
        let door = DoorLine::between(Vector::new(0.0, 1.0), Vector::new(0.0, -1.0)).unwrap();
        assert_eq!(door.across, Vector::X);
        let at = Vector::new(-2.0, 0.0);
        assert_eq!(door.coming(at, Vector::X, 0.5, 3.0), Some(1));
        assert_eq!(door.coming(-at, -Vector::X, 0.5, 3.0), Some(-1));
        // Out of reach, heading away, or along the wall.
        assert_eq!(door.coming(at * 2.0, Vector::X, 0.5, 3.0), None);
        assert_eq!(door.coming(at, -Vector::X, 0.5, 3.0), None);
        assert_eq!(door.coming(at, Vector::Y, 0.5, 3.0), None);
        // For the wall 2 m beside the opening: no.
        let aside = direction(Vector::new(2.0, 2.0));
        assert_eq!(door.coming(at, aside, 0.5, 3.0), None);
        // Nowhere to go, or not finite: no.
        assert_eq!(door.coming(at, Vector::ZERO, 0.5, 3.0), None);
        assert_eq!(door.coming(Vector::NAN, Vector::X, 0.5, 3.0), None);
        assert_eq!(door.coming(at, Vector::X, 0.5, f32::NAN), None);
        assert!(DoorLine::between(Vector::ONE, Vector::ONE).is_none());
        assert!(DoorLine::between(Vector::NAN, Vector::ONE).is_none());
    }

    /// A door's posts are the two it was made between, in their order.
    #[test]
    fn a_door_gives_back_its_posts() {
        let (a, b) = (Vector::new(3.0, -1.0), Vector::new(-1.0, 2.0));
        let [first, second] = DoorLine::between(a, b).unwrap().posts();
        assert!(first.distance(a) < 1e-6 && second.distance(b) < 1e-6);
    }
}
