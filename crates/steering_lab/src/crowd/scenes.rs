//! The crowd situations, in metres: people 1 m across walking at 1.3 m/s,
//! each from a start to a goal, among walls. The kinds of the public
//! SteerSuite benchmark (oncoming, crossing, overtaking, circles, doors,
//! hallways, bottlenecks), written here from their descriptions.

use bevy::math::Vec2;
use bevy_reynolds::reynolds::crowd::turns::DoorLine;
use rand::rngs::Xoshiro128PlusPlus;
use rand::{RngExt, SeedableRng};

/// A person's body radius, in metres.
pub const RADIUS: f32 = 0.5;
/// A person's walking speed, in metres a second.
pub const SPEED: f32 = 1.3;

/// One person: where they start and where they walk to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Walker {
    /// Where they start.
    pub start: Vec2,
    /// Where they walk to.
    pub goal: Vec2,
    /// Their body's radius.
    pub radius: f32,
    /// Their walking (and top) speed.
    pub speed: f32,
    /// A door they walk through on the way, as a game's pathfinding would
    /// route them: the crowd's methods avoid, they do not find ways round
    /// walls.
    pub via: Option<Door>,
    /// Who gives way to whom (`AvoidAgents::right_of_way`; ORCA has no
    /// such thing and treats all alike). 0, as everyone, by default.
    pub right_of_way: u8,
}

/// A door in a wall, and whether people pass it both ways: the routes a
/// game's pathfinding would give through it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Door {
    /// Its opening, as the plugin's doors see theirs: its middle, which
    /// way is across the wall, how wide.
    pub line: DoorLine,
    /// Whether it is passed both ways: then routes through it keep right,
    /// as a traffic rule would have them (each way has half the door).
    pub two_way: bool,
}

impl Door {
    /// The door 2 m wide in a wall along y, at `middle`, passed one way
    /// (east along its `across`).
    pub fn in_wall_along_y(middle: Vec2) -> Self {
        let line = DoorLine::between(middle + Vec2::Y, middle - Vec2::Y)
            .expect("a door's posts 2 m apart");
        Self {
            line,
            two_way: false,
        }
    }

    /// The same door, passed both ways.
    pub fn both_ways(self) -> Self {
        Self {
            two_way: true,
            ..self
        }
    }

    /// The point of the door a body of `radius` at `at`, going through it
    /// along `going` (`across` or its opposite), passes through soonest:
    /// level with it, as far to the side as the body fits, and in a door
    /// passed both ways, on its right half.
    pub fn way_through(&self, at: Vec2, going: Vec2, radius: f32) -> Vec2 {
        let (left, lowest, highest) = self.lane(going, radius);
        let lateral = (at - self.line.middle).dot(left).clamp(lowest, highest);
        self.line.middle + left * lateral
    }

    /// Where in the door a body's centre may pass: from `lowest` to
    /// `highest` along `left`, to the left of `going` from the middle.
    fn lane(&self, going: Vec2, radius: f32) -> (Vec2, f32, f32) {
        let left = going.perp();
        let room = (self.line.half_width - radius).max(0.0);
        // Both ways: the body wholly on the right of the middle, if it fits.
        let highest = if self.two_way {
            (-radius).max(-room)
        } else {
            room
        };
        (left, -room, highest)
    }

    /// Whether a body of `radius` going straight from `at` to `to` (past
    /// the door, along `going`) passes through the door's way for it
    /// rather than into the wall: the straight line of a route pulled
    /// tight, which bends at the door's edge only when it must.
    ///
    /// ```
    /// # use bevy::math::Vec2;
    /// # use steering_lab::crowd::Door;
    /// // A door 2 m wide in a wall along x = 0; a body 1 m across.
    /// let door = Door::in_wall_along_y(Vec2::ZERO);
    /// // From in front of it, straight through.
    /// assert!(door.lets_through(Vec2::new(-3.0, 0.2), Vec2::new(1.0, 0.2), Vec2::X, 0.5));
    /// // From beside it, along the wall: that line goes into the wall.
    /// assert!(!door.lets_through(Vec2::new(-0.6, -3.0), Vec2::new(1.0, -0.5), Vec2::X, 0.5));
    /// // Passed both ways, only its right half is the body's way.
    /// let both = door.both_ways();
    /// assert!(!both.lets_through(Vec2::new(-3.0, 0.5), Vec2::new(1.0, 0.5), Vec2::X, 0.5));
    /// assert!(both.lets_through(Vec2::new(-3.0, -0.5), Vec2::new(1.0, -0.5), Vec2::X, 0.5));
    /// ```
    pub fn lets_through(&self, at: Vec2, to: Vec2, going: Vec2, radius: f32) -> bool {
        let middle = self.line.middle;
        let (from, beyond) = ((at - middle).dot(going), (to - middle).dot(going));
        if from >= 0.0 {
            return true;
        }
        if beyond <= 0.0 {
            return false;
        }
        let crossing = at + (to - at) * (-from / (beyond - from));
        let (left, lowest, highest) = self.lane(going, radius);
        let lateral = (crossing - middle).dot(left);
        let slack = 0.01 * radius;
        (lowest - slack..=highest + slack).contains(&lateral)
    }

    /// The direction through the door of someone from `start` (a unit
    /// vector across its wall; zero from on the wall's line).
    pub fn going_from(&self, start: Vec2) -> Vec2 {
        self.line.across * f32::from(self.line.way_from(start))
    }

    /// How far `at` is past the door's wall, coming from `start`'s side.
    pub fn past(&self, start: Vec2, at: Vec2) -> f32 {
        self.line.past(at, self.line.way_from(start))
    }
}

impl Walker {
    /// A person from `start` to `goal` at the usual size and speed.
    pub fn new(start: Vec2, goal: Vec2) -> Self {
        Self {
            start,
            goal,
            radius: RADIUS,
            speed: SPEED,
            via: None,
            right_of_way: 0,
        }
    }

    /// The same person, walking through `via` on the way.
    pub fn via(self, via: Door) -> Self {
        Self {
            via: Some(via),
            ..self
        }
    }

    /// The same person, with `right_of_way`.
    pub fn with_right_of_way(self, right_of_way: u8) -> Self {
        Self {
            right_of_way,
            ..self
        }
    }

    /// The length of their way in straight lines: to the goal, through
    /// the point on the way if there is one.
    pub fn straight_length(&self) -> f32 {
        match self.via {
            Some(door) => {
                let middle = door.line.middle;
                self.start.distance(middle) + middle.distance(self.goal)
            }
            None => self.start.distance(self.goal),
        }
    }

    /// Where they head from `at`, and how far along their way they are
    /// (`stage`, from 0): the way a route pulled tight through the door
    /// on their way goes (as a game's pathfinding would give it). A metre
    /// past the door, level with them as far as their body fits (in a
    /// door passed both ways, on its right half), when the straight line
    /// there passes through the door; else the door's edge on that line,
    /// where the route bends round the door post; once their body is
    /// through the door's wall, the goal.
    pub fn aim(&self, at: Vec2, stage: &mut u8) -> Vec2 {
        let Some(door) = self.via else {
            return self.goal;
        };
        let going = door.going_from(self.start);
        let through = door.way_through(at, going, self.radius);
        let after = through + going;
        if *stage < 2 {
            *stage = u8::from(door.lets_through(at, after, going, self.radius));
        }
        if *stage == 1 && door.past(self.start, at) > self.radius {
            *stage = 2;
        }
        match stage {
            0 => through,
            1 => after,
            _ => self.goal,
        }
    }

    /// The time the straight lines take, at their speed.
    pub fn straight_time(&self) -> f32 {
        self.straight_length() / self.speed
    }
}

/// A crowd situation.
#[derive(Debug, Clone, PartialEq)]
pub struct CrowdScene {
    /// Its name on the command line.
    pub name: &'static str,
    /// Everyone in it.
    pub walkers: Vec<Walker>,
    /// Walls, as their two ends.
    pub walls: Vec<(Vec2, Vec2)>,
    /// How long it runs, if not as long as [`seconds`](Self::seconds) says.
    pub time_limit: Option<f32>,
    /// Whether the door people pass both ways takes turns, and how many it
    /// lets through one way before the other (the plugin's
    /// [`TakeTurns`](bevy_reynolds::TakeTurns)):
    /// a rule of the door, given to the plugin's crowd as right of way (ORCA
    /// has none, and passes it as it would any door).
    pub door_turns: Option<usize>,
}

/// The most [`CrowdScene::jittered`] should move a start, in metres: the
/// hallway's lanes are 1.2 m apart and the bottleneck's places 1.25 m, with
/// its first column 0.25 m off a wall, so that no two of the 1 m bodies
/// start overlapping, nor any in a wall.
pub const MAX_JITTER: f32 = 0.1;

impl CrowdScene {
    /// The same scene with everyone's start moved by up to `by` metres
    /// along each axis, at random from `seed`: whether a result belongs
    /// to the scene or to the exact places it starts from. No move at 0;
    /// keep `by` within [`MAX_JITTER`].
    ///
    /// ```
    /// # use steering_lab::crowd::scene;
    /// let hallway = scene("hallway", 1).unwrap();
    /// let moved = hallway.clone().jittered(0.1, 7);
    /// let shifts = hallway.walkers.iter().zip(&moved.walkers).map(|(a, b)| b.start - a.start);
    /// assert!(shifts.clone().all(|d| d.abs().max_element() <= 0.1));
    /// assert!(shifts.clone().all(|d| d != bevy::math::Vec2::ZERO));
    /// // The same seed, the same places; the goals stay.
    /// assert_eq!(moved, hallway.clone().jittered(0.1, 7));
    /// assert_ne!(moved, hallway.clone().jittered(0.1, 8));
    /// assert!(hallway.walkers.iter().zip(&moved.walkers).all(|(a, b)| a.goal == b.goal));
    /// assert_eq!(hallway.clone().jittered(0.0, 7), hallway);
    /// ```
    pub fn jittered(mut self, by: f32, seed: u64) -> Self {
        if !(by.is_finite() && by > 0.0) {
            return self;
        }
        // Apart from the stream the random scenes draw from the same seed.
        let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed ^ 0x6a17_7e45);
        for walker in &mut self.walkers {
            walker.start += Vec2::new(rng.random_range(-by..=by), rng.random_range(-by..=by));
        }
        self
    }

    /// How long it runs: its time limit if it has one, else four times the
    /// longest straight line, and at least 30 s.
    pub fn seconds(&self) -> f32 {
        if let Some(limit) = self.time_limit {
            return limit;
        }
        let longest = self
            .walkers
            .iter()
            .map(Walker::straight_time)
            .fold(0.0, f32::max);
        (4.0 * longest).max(30.0)
    }
}

/// The names of every scene, in order.
pub const NAMES: [&str; 20] = [
    "oncoming",
    "crossing",
    "overtaking",
    "corner",
    "circle-24",
    "circle-100",
    "circle-250",
    "doorway",
    "doorway-east-first",
    "doorway-turns",
    "door-one-way",
    "door-solo",
    "door-stander",
    "door-lanes",
    "hallway",
    "crossroads",
    "bottleneck",
    "random-200",
    "random-1000",
    "random-10000",
];

/// The scene called `name`, if there is one (seeded where it is random).
pub fn scene(name: &str, seed: u64) -> Option<CrowdScene> {
    let v = Vec2::new;
    let mut door_turns = None;
    let (walkers, walls) = match name {
        "oncoming" => (
            vec![
                Walker::new(v(-10.0, 0.0), v(10.0, 0.0)),
                Walker::new(v(10.0, 0.0), v(-10.0, 0.0)),
            ],
            vec![],
        ),
        "crossing" => (
            vec![
                Walker::new(v(-10.0, 0.0), v(10.0, 0.0)),
                Walker::new(v(0.0, -10.0), v(0.0, 10.0)),
            ],
            vec![],
        ),
        "overtaking" => (
            vec![
                Walker::new(v(-12.0, 0.0), v(12.0, 0.0)),
                Walker {
                    speed: 0.5,
                    ..Walker::new(v(-6.0, 0.0), v(6.0, 0.0))
                },
            ],
            vec![],
        ),
        // Two meet where each comes round a box's corner: one along its top,
        // one along its right side.
        "corner" => (
            vec![
                Walker::new(v(-10.0, 0.0), v(10.0, 0.0)),
                Walker::new(v(0.0, -10.0), v(0.0, 10.0)),
            ],
            rectangle(v(-8.0, -8.0), v(-0.8, -0.8)),
        ),
        "circle-24" => (circle(24, 10.0), vec![]),
        "circle-100" => (circle(100, 25.0), vec![]),
        "circle-250" => (circle(250, 60.0), vec![]),
        "doorway" => doorway(true),
        // The same, those from the east with right of way, as a game's rule
        // might have it (who is inside goes out first): one giving way can
        // be pinned by its own crowd behind it, and bodies must still not
        // overlap.
        "doorway-east-first" => {
            let (walkers, walls) = doorway(true);
            let east_first = |w: Walker| w.with_right_of_way(u8::from(w.start.x > 0.0));
            (walkers.into_iter().map(east_first).collect(), walls)
        }
        // The same, the door taking turns in runs of 16: long enough (runs
        // of 12 to 25 did as well, 8 worse), and short enough that neither
        // way waits for the other to empty (BENCHMARKS.md, "Crowds").
        "doorway-turns" => {
            door_turns = Some(16);
            doorway(true)
        }
        "door-one-way" => {
            let (walkers, walls) = doorway(false);
            (walkers.into_iter().step_by(2).collect(), walls)
        }
        "door-solo" => (
            vec![
                Walker::new(Vec2::new(-5.0, 0.5), Vec2::new(5.0, 0.5))
                    .via(Door::in_wall_along_y(Vec2::ZERO)),
            ],
            doorway(false).1,
        ),
        // One stands in the door (that is their goal); one walks through.
        "door-stander" => (
            vec![
                Walker::new(Vec2::ZERO, Vec2::ZERO),
                Walker::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))
                    .via(Door::in_wall_along_y(Vec2::ZERO)),
            ],
            doorway(false).1,
        ),
        "door-lanes" => door_lanes(),
        "hallway" => hallway(),
        "crossroads" => (crossroads(), vec![]),
        "bottleneck" => bottleneck(),
        "random-200" => (random(200, 40.0, seed), vec![]),
        "random-1000" => (random(1_000, 90.0, seed), vec![]),
        "random-10000" => (random(10_000, 280.0, seed), vec![]),
        _ => return None,
    };
    Some(CrowdScene {
        name: NAMES.into_iter().find(|n| *n == name)?,
        walkers,
        walls,
        time_limit: None,
        door_turns,
    })
}

/// The four sides of the box from `min` to `max`.
fn rectangle(min: Vec2, max: Vec2) -> Vec<(Vec2, Vec2)> {
    let corners = [min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)];
    (0..4).map(|i| (corners[i], corners[(i + 1) % 4])).collect()
}

/// `n` people evenly round a circle of `radius`, each walking to the
/// point opposite.
fn circle(n: usize, radius: f32) -> Vec<Walker> {
    (0..n)
        .map(|i| {
            let at = Vec2::from_angle(std::f32::consts::TAU * i as f32 / n as f32) * radius;
            Walker::new(at, -at)
        })
        .collect()
}

/// A wall across x = 0 with a 2 m door in it; 25 people on each side in
/// a 5 × 5 block, each walking through the door to the same place mirrored
/// on the far side (`both_ways`: both sides walk, and keep right in the
/// door; else the first side only walks).
fn doorway(both_ways: bool) -> (Vec<Walker>, Vec<(Vec2, Vec2)>) {
    let door = Door::in_wall_along_y(Vec2::ZERO);
    let door = if both_ways { door.both_ways() } else { door };
    let mut walkers = Vec::new();
    for i in 0..5 {
        for j in 0..5 {
            let at = Vec2::new(-4.0 - 1.5 * i as f32, -3.0 + 1.5 * j as f32);
            walkers.push(Walker::new(at, Vec2::new(-at.x + 4.0, at.y)).via(door));
            let mirrored = Vec2::new(-at.x, at.y + 0.75);
            walkers.push(Walker::new(mirrored, Vec2::new(-mirrored.x - 4.0, mirrored.y)).via(door));
        }
    }
    let walls = vec![
        (Vec2::new(0.0, 1.0), Vec2::new(0.0, 20.0)),
        (Vec2::new(0.0, -1.0), Vec2::new(0.0, -20.0)),
    ];
    (walkers, walls)
}

/// Two files of six, 1.5 m apart nose to tail, each already on its own
/// half of a door passed both ways and walking through it: one going east,
/// one going west, each person 12 m. Both files fit through at once only
/// with bodies sliding past each other touching (each half of the door is
/// exactly a body wide); one at a time, the door takes twice as long. What
/// the two-way door's crowd would need to pass both ways at once.
fn door_lanes() -> (Vec<Walker>, Vec<(Vec2, Vec2)>) {
    let door = Door::in_wall_along_y(Vec2::ZERO).both_ways();
    let mut walkers = Vec::new();
    for k in 0..6 {
        let x = 3.0 + 1.5 * k as f32;
        walkers.push(Walker::new(Vec2::new(-x, -0.5), Vec2::new(12.0 - x, -0.5)).via(door));
        // 0.3 m further back than their counterpart going east.
        let x = x + 0.3;
        walkers.push(Walker::new(Vec2::new(x, 0.5), Vec2::new(x - 12.0, 0.5)).via(door));
    }
    (walkers, doorway(false).1)
}

/// A hallway 6 m wide; 100 people from each end, four abreast, walk 50 m
/// along it, the two groups a quarter of a row off each other's lanes.
fn hallway() -> (Vec<Walker>, Vec<(Vec2, Vec2)>) {
    let mut walkers = Vec::new();
    for i in 0..25 {
        for j in 0..4 {
            let y = -1.8 + 1.2 * j as f32;
            let x = 15.0 + 1.4 * i as f32;
            walkers.push(Walker::new(Vec2::new(-x, y), Vec2::new(50.0 - x, y)));
            // A quarter of a row off the other group's lanes.
            let y = y + 0.3;
            walkers.push(Walker::new(Vec2::new(x, y), Vec2::new(x - 50.0, y)));
        }
    }
    let walls = vec![
        (Vec2::new(-60.0, 3.0), Vec2::new(60.0, 3.0)),
        (Vec2::new(-60.0, -3.0), Vec2::new(60.0, -3.0)),
    ];
    (walkers, walls)
}

/// Four blocks of 50 people, from the four sides of a square, each
/// walking straight across it to the side opposite.
fn crossroads() -> Vec<Walker> {
    let mut walkers = Vec::new();
    for side in 0..4 {
        let (along, across) = match side {
            0 => (Vec2::X, Vec2::Y),
            1 => (Vec2::NEG_X, Vec2::NEG_Y),
            2 => (Vec2::Y, Vec2::NEG_X),
            _ => (Vec2::NEG_Y, Vec2::X),
        };
        for i in 0..10 {
            for j in 0..5 {
                let back = 12.0 + 1.5 * j as f32;
                let side_offset = -6.75 + 1.5 * i as f32;
                let start = -along * back + across * side_offset;
                walkers.push(Walker::new(start, start + along * 2.0 * back));
            }
        }
    }
    walkers
}

/// A room 20 × 20 m with one 2 m exit in its right wall; 200 people inside
/// walk out through it to places spread in a field beyond.
fn bottleneck() -> (Vec<Walker>, Vec<(Vec2, Vec2)>) {
    // Places 1.25 m apart, 15 across and 14 down, the first 200 taken;
    // goals 1.5 m by 3 m apart.
    let door = Door::in_wall_along_y(Vec2::ZERO);
    let walkers = (0..200)
        .map(|k| {
            let (i, j) = ((k / 14) as f32, (k % 14) as f32);
            let start = Vec2::new(-19.25 + 1.25 * i, -8.125 + 1.25 * j);
            let (i, j) = ((k / 10) as f32, (k % 10) as f32);
            let goal = Vec2::new(8.0 + 1.5 * i, -13.5 + 3.0 * j);
            Walker::new(start, goal).via(door)
        })
        .collect();
    let walls = vec![
        (Vec2::new(-20.0, -10.0), Vec2::new(0.0, -10.0)),
        (Vec2::new(-20.0, 10.0), Vec2::new(0.0, 10.0)),
        (Vec2::new(-20.0, -10.0), Vec2::new(-20.0, 10.0)),
        (Vec2::new(0.0, -10.0), Vec2::new(0.0, -1.0)),
        (Vec2::new(0.0, 1.0), Vec2::new(0.0, 10.0)),
    ];
    (walkers, walls)
}

/// `n` people at random places in a square `side` across, each walking
/// to another: places of a lattice 2.4 m apart, moved by up to 0.6 m, so
/// no two bodies start (or end) overlapping.
fn random(n: usize, side: f32, seed: u64) -> Vec<Walker> {
    use rand::seq::SliceRandom;
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
    let spacing = 2.4;
    let across = ((side / spacing) as usize).max(1);
    let mut places: Vec<Vec2> = (0..across * across)
        .map(|k| {
            let cell = Vec2::new((k % across) as f32, (k / across) as f32);
            (cell + 0.5) * spacing - side / 2.0
        })
        .collect();
    let mut pick = |rng: &mut Xoshiro128PlusPlus| {
        places.shuffle(rng);
        places
            .iter()
            .take(n)
            .map(|p| *p + Vec2::new(rng.random_range(-0.6..0.6), rng.random_range(-0.6..0.6)))
            .collect::<Vec<_>>()
    };
    let starts = pick(&mut rng);
    let goals = pick(&mut rng);
    starts
        .into_iter()
        .zip(goals)
        .map(|(s, g)| Walker::new(s, g))
        .collect()
}
