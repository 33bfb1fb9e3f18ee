//! How many of a scene's people any crowd method could bring through its
//! door in time, if the door passes one body at a time: a bound to judge
//! the two-way door's bar by (BENCHMARKS.md,
//! "Crowds").
//!
//! The model is kinder than any crowd: each person walks straight at their
//! speed to their way through the door and on to their goal, and loses
//! time only by waiting at the door. The door lets them through one at a
//! time, `headway` seconds apart when two go the same way and `switch`
//! apart when the way changes. Within each way, first come, first through;
//! between the ways, the order that brings the most within three times
//! their straight-line time, found over every interleaving of the two
//! queues. [`run_bound`] asks the same door how many it could pass within
//! the scene's whole run, for the bottleneck, where the door sets the time.

use std::collections::VecDeque;

use super::{ARRIVED, CrowdScene};

/// One person at the door: when they could be there, how long they need
/// from there, and their deadline.
#[derive(Clone, Copy, Debug)]
struct AtDoor {
    reaches: f32,
    then_takes: f32,
    deadline: f32,
}

/// The best order through a door: how many arrive in time, and which way
/// each goes through, in turn (`>` along the door's `across`, `<` against
/// it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestOrder {
    /// How many arrive within three times their straight-line time.
    pub in_time: usize,
    /// Which way each goes through, in turn.
    pub order: String,
}

/// The most of `scene`'s people who arrive within three times their
/// straight-line time when its door passes one at a time, `headway`
/// seconds apart going the same way and `switch` apart after the way
/// changes, under the best order (see the module). Only people routed
/// through a door count toward it; `None` when there are none, or a time
/// is not positive and finite.
///
/// ```
/// # use steering_lab::crowd::{door_bound, scene};
/// let door = scene("doorway", 1).unwrap();
/// // Bodies touching, at full speed, and no time lost turning the door
/// // round: everyone in time.
/// assert_eq!(door_bound(&door, 1.0 / 1.3, 1.0 / 1.3).unwrap().in_time, 50);
/// // One a second, and three seconds to turn it round: fewer than 45.
/// let best = door_bound(&door, 1.0, 3.0).unwrap();
/// assert!(best.in_time < 45);
/// assert_eq!(best.order.len(), 50);
/// ```
pub fn door_bound(scene: &CrowdScene, headway: f32, switch: f32) -> Option<BestOrder> {
    let ways = door_model(scene, headway, switch)?;
    Some(best_order(&ways, headway, switch))
}

/// Everyone at the door ([`at_door`]), if someone goes through it and
/// `headway` and `switch` are positive, finite times.
fn door_model(scene: &CrowdScene, headway: f32, switch: f32) -> Option<[Vec<AtDoor>; 2]> {
    let positive = |t: f32| t.is_finite() && t > 0.0;
    if !(positive(headway) && positive(switch)) {
        return None;
    }
    let ways = at_door(scene);
    (!ways.iter().all(Vec::is_empty)).then_some(ways)
}

/// How many of `scene`'s people arrive within three times their
/// straight-line time when, in [`door_bound`]'s model, the door takes
/// turns by a simple rule instead of the best order: `burst` one way,
/// then `burst` the other (fewer when a way runs out). It knows nothing
/// of who is late (BENCHMARKS.md, "Crowds"). In
/// the doorway both queues stay full: turning early when the way served
/// has nobody at the door in time changed no count. `None` as
/// [`door_bound`], or when `burst` is 0.
///
/// ```
/// # use steering_lab::crowd::{door_bound, door_in_bursts, scene};
/// let door = scene("doorway", 1).unwrap();
/// // At the one-way door's pace, bursts of 20 come near the best order.
/// let bursts = door_in_bursts(&door, 0.86, 1.5, 20).unwrap();
/// let best = door_bound(&door, 0.86, 1.5).unwrap().in_time;
/// assert!(bursts >= 45 && bursts <= best);
/// ```
pub fn door_in_bursts(
    scene: &CrowdScene,
    headway: f32,
    switch: f32,
    burst: usize,
) -> Option<usize> {
    if burst == 0 {
        return None;
    }
    serve(scene, headway, switch, |_, _, _, run| run >= burst)
}

/// As [`door_in_bursts`], but the door turns once the other way's first
/// has waited longer than `patience` seconds.
pub fn door_by_patience(
    scene: &CrowdScene,
    headway: f32,
    switch: f32,
    patience: f32,
) -> Option<usize> {
    serve(scene, headway, switch, |queues, last, free_at, _| {
        let next_through = queues[last][0].reaches.max(free_at + headway);
        next_through - queues[1 - last][0].reaches > patience
    })
}

/// The door of [`door_bound`]'s model serving both ways, first come first
/// through within a way: it turns to the other way when its own is
/// empty, or when `turn(queues, last way, when it was last free, how many
/// in a row)` says so while both have people. How many arrive in time.
fn serve(
    scene: &CrowdScene,
    headway: f32,
    switch: f32,
    turn: impl Fn(&[VecDeque<AtDoor>; 2], usize, f32, usize) -> bool,
) -> Option<usize> {
    let mut queues = door_model(scene, headway, switch)?.map(VecDeque::from);
    let mut last: Option<usize> = None;
    let (mut free_at, mut run, mut in_time) = (f32::NEG_INFINITY, 0, 0);
    while let Some(way) = match last {
        _ if queues.iter().all(VecDeque::is_empty) => None,
        None => (0..2)
            .filter(|&w| !queues[w].is_empty())
            .min_by(|&a, &b| queues[a][0].reaches.total_cmp(&queues[b][0].reaches)),
        Some(l) if queues[l].is_empty() => Some(1 - l),
        Some(l) if !queues[1 - l].is_empty() && turn(&queues, l, free_at, run) => Some(1 - l),
        Some(l) => Some(l),
    } {
        let person = queues[way].pop_front()?;
        let gap = match last {
            None => 0.0,
            Some(l) if l == way => headway,
            Some(_) => switch,
        };
        free_at = person.reaches.max(free_at + gap);
        run = if last == Some(way) { run + 1 } else { 1 };
        last = Some(way);
        in_time += usize::from(free_at + person.then_takes <= person.deadline);
    }
    Some(in_time)
}

/// What a door one body wide allows a scene's whole run: see
/// [`run_bound`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunBound {
    /// At most how many arrive within the scene's run
    /// ([`CrowdScene::seconds`]).
    pub in_run: usize,
    /// The soonest, in seconds, the last of them could arrive.
    pub all_in: f32,
}

/// What `scene`'s door allows the people routed through it, if it lets
/// one body through at a time, at least `headway` seconds after the last
/// whichever way they go: at most how many arrive within the scene's run,
/// and the soonest all could, bounds over every order. For the scenes
/// where the door, not the walk, sets the time (the bottleneck). `None`
/// when nobody goes through a door, or `headway` is not a positive time.
///
/// It is kinder still than [`door_bound`]'s model: everyone may be at the
/// door as soon as the first could be. Then the `k`-th through goes no
/// earlier than `(k - 1) * headway` after that; the most in time are those
/// who can go through latest, and all are in soonest if those with the
/// farthest to go from the door go first.
///
/// ```
/// # use steering_lab::crowd::{run_bound, scene};
/// let room = scene("bottleneck", 1).unwrap();
/// // Bodies touching at full speed, one at a time: not all 200 within
/// // the run, which two at a time would allow.
/// let single_file = run_bound(&room, 1.0 / 1.3).unwrap();
/// assert!(single_file.in_run < 200 && single_file.all_in > room.seconds());
/// let two_abreast = run_bound(&room, 0.5 / 1.3).unwrap();
/// assert!(two_abreast.in_run == 200 && two_abreast.all_in < room.seconds());
/// ```
pub fn run_bound(scene: &CrowdScene, headway: f32) -> Option<RunBound> {
    if !(headway.is_finite() && headway > 0.0) {
        return None;
    }
    let people: Vec<AtDoor> = at_door(scene).into_iter().flatten().collect();
    let first = people.iter().map(|p| p.reaches).reduce(f32::min)?;
    let seconds = scene.seconds();
    let latest_through = people.iter().map(|p| seconds - p.then_takes).collect();
    let then_takes = people.iter().map(|p| p.then_takes).collect();
    Some(RunBound {
        in_run: most_in_time(first, latest_through, headway),
        all_in: soonest_all_in(first, then_takes, headway),
    })
}

/// When the last of a set of people, all at the door from `first`, one
/// through every `headway` seconds, could be in at the soonest, each
/// taking `then_takes` from the door: the farthest to go go first.
fn soonest_all_in(first: f32, mut then_takes: Vec<f32>, headway: f32) -> f32 {
    then_takes.sort_by(|a, b| b.total_cmp(a));
    then_takes
        .iter()
        .enumerate()
        .map(|(k, &takes)| first + k as f32 * headway + takes)
        .fold(f32::NEG_INFINITY, f32::max)
}

/// The most of a set of people, all at the door from `first`, who can go
/// through one every `headway` seconds, each by their latest time: the
/// ones with the latest, if the earliest of those goes first, the next
/// one `headway` later, and so on.
fn most_in_time(first: f32, mut latest: Vec<f32>, headway: f32) -> usize {
    latest.sort_by(|a, b| b.total_cmp(a));
    // One more has the earliest latest time of the set, so goes first and
    // puts everyone else a headway later: once a set fails, every larger
    // one does.
    (1..=latest.len())
        .take_while(|&m| {
            let chosen = &latest[..m];
            chosen
                .iter()
                .rev()
                .enumerate()
                .all(|(k, &by)| first + k as f32 * headway <= by)
        })
        .last()
        .unwrap_or(0)
}

/// Everyone routed through a door, split by the way they go through it
/// (along the door's `across`, then against it), each way in the order
/// they could reach it.
fn at_door(scene: &CrowdScene) -> [Vec<AtDoor>; 2] {
    let mut ways: [Vec<AtDoor>; 2] = [Vec::new(), Vec::new()];
    for walker in &scene.walkers {
        let Some(door) = walker.via else { continue };
        let going = door.going_from(walker.start);
        let through = door.way_through(walker.start, going, walker.radius);
        ways[usize::from(door.line.way_from(walker.start) < 0)].push(AtDoor {
            reaches: walker.start.distance(through) / walker.speed,
            then_takes: (through.distance(walker.goal) - ARRIVED).max(0.0) / walker.speed,
            deadline: 3.0 * walker.straight_time(),
        });
    }
    for way in &mut ways {
        way.sort_by(|a, b| a.reaches.total_cmp(&b.reaches));
    }
    ways
}

/// How the door has gone so far: how many in time, when the last went
/// through, and the order.
type SoFar = (usize, f32, String);

/// The best over every interleaving of the two queues. After `i` of the
/// first way and `j` of the second, the last through going `last`, only
/// the earliest time the door is free for each count in time matters: a
/// state keeps the orders no other beats on both.
fn best_order(ways: &[Vec<AtDoor>; 2], headway: f32, switch: f32) -> BestOrder {
    let (n0, n1) = (ways[0].len(), ways[1].len());
    let mut fronts = vec![vec![[Vec::<SoFar>::new(), Vec::new()]; n1 + 1]; n0 + 1];
    // Nobody through yet: the door has always been free.
    fronts[0][0][0].push((0, f32::NEG_INFINITY, String::new()));
    for i in 0..=n0 {
        for j in 0..=n1 {
            for last in 0..2 {
                for (count, free_at, order) in std::mem::take(&mut fronts[i][j][last]) {
                    if i + j == n0 + n1 {
                        // Everyone through: keep it for the answer.
                        fronts[i][j][last].push((count, free_at, order));
                        continue;
                    }
                    for way in 0..2 {
                        let next = [i, j][way];
                        let Some(person) = ways[way].get(next) else {
                            continue;
                        };
                        let gap = match (i + j, way == last) {
                            (0, _) => 0.0,
                            (_, true) => headway,
                            (_, false) => switch,
                        };
                        let through = person.reaches.max(free_at + gap);
                        let in_time = through + person.then_takes <= person.deadline;
                        let (ni, nj) = if way == 0 { (i + 1, j) } else { (i, j + 1) };
                        let order = format!("{order}{}", ['>', '<'][way]);
                        let so_far = (count + usize::from(in_time), through, order);
                        keep(&mut fronts[ni][nj][way], so_far);
                    }
                }
            }
        }
    }
    let (in_time, _, order) = fronts[n0][n1]
        .iter()
        .flatten()
        .max_by_key(|(count, ..)| *count)
        .cloned()
        .unwrap_or_default();
    BestOrder { in_time, order }
}

/// Adds `state` to `front` unless one there is as good on both counts,
/// and drops those it beats on both.
fn keep(front: &mut Vec<SoFar>, state: SoFar) {
    if front.iter().any(|&(c, t, _)| c >= state.0 && t <= state.1) {
        return;
    }
    front.retain(|&(c, t, _)| !(state.0 >= c && state.1 <= t));
    front.push(state);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every interleaving of the two queues, tried one by one.
    fn by_brute_force(ways: &[Vec<AtDoor>; 2], headway: f32, switch: f32) -> usize {
        let (n0, n1) = (ways[0].len(), ways[1].len());
        let mut best = 0;
        for mask in 0u32..(1 << (n0 + n1)) {
            if mask.count_ones() as usize != n1 {
                continue;
            }
            let (mut next, mut free_at, mut last, mut count) = ([0, 0], f32::NEG_INFINITY, None, 0);
            for k in 0..n0 + n1 {
                let way = usize::from(mask & (1 << k) != 0);
                let person = ways[way][next[way]];
                next[way] += 1;
                let gap = match last {
                    None => 0.0,
                    Some(l) if l == way => headway,
                    Some(_) => switch,
                };
                free_at = person.reaches.max(free_at + gap);
                count += usize::from(free_at + person.then_takes <= person.deadline);
                last = Some(way);
            }
            best = best.max(count);
        }
        best
    }

    #[test]
    fn the_best_order_is_the_best_of_all_orders() {
        // Small queues of made-up people, tight enough that the order
        // matters: the search must find what trying every order finds.
        let person = |k: u32| AtDoor {
            reaches: (k * 7 % 5) as f32 * 0.6,
            then_takes: 1.0 + (k * 3 % 4) as f32 * 0.5,
            deadline: 3.0 + (k * 5 % 7) as f32 * 0.9,
        };
        for seed in 0..40 {
            let ways = [
                (0..seed % 6).map(|k| person(k + seed)).collect::<Vec<_>>(),
                (0..(seed / 6) % 6)
                    .map(|k| person(k * 11 + seed * 3))
                    .collect(),
            ];
            let mut ways = ways;
            for way in &mut ways {
                way.sort_by(|a, b| a.reaches.total_cmp(&b.reaches));
            }
            for (headway, switch) in [(0.5, 0.5), (0.8, 2.0), (1.0, 3.5)] {
                assert_eq!(
                    best_order(&ways, headway, switch).in_time,
                    by_brute_force(&ways, headway, switch),
                    "seed {seed}, {headway} / {switch}"
                );
            }
        }
    }

    /// Every order of `people` (each as when they could be at the door
    /// and their latest time through it), one through every `headway`:
    /// the most in time.
    fn most_in_time_by_brute_force(people: &[(f32, f32)], headway: f32) -> usize {
        fn go(left: &mut Vec<(f32, f32)>, free_at: f32, headway: f32) -> usize {
            let mut best = 0;
            for k in 0..left.len() {
                let (reaches, latest) = left.remove(k);
                let through = reaches.max(free_at);
                let here = usize::from(through <= latest);
                best = best.max(here + go(left, through + headway, headway));
                left.insert(k, (reaches, latest));
            }
            best
        }
        go(&mut people.to_vec(), f32::NEG_INFINITY, headway)
    }

    #[test]
    fn the_run_bound_is_never_below_the_best_order() {
        // Made-up people: the bound may be kind (everyone at the door from
        // the first's time) but never below what some order brings, and
        // exact when everyone could be there at once.
        let people = |seed: u32, n: u32, reach: &dyn Fn(u32) -> f32| -> Vec<(f32, f32)> {
            (0..n)
                .map(|k| (reach(k + seed), 1.0 + ((k + seed) * 5 % 7) as f32 * 0.7))
                .collect()
        };
        let mut kinder = 0;
        for seed in 0..30 {
            for headway in [0.4, 0.9, 1.6] {
                let n = 1 + seed % 7;
                let at_once = people(seed, n, &|_| 0.5);
                let latest = at_once.iter().map(|p| p.1).collect();
                assert_eq!(
                    most_in_time(0.5, latest, headway),
                    most_in_time_by_brute_force(&at_once, headway),
                    "at once, seed {seed}, headway {headway}"
                );
                let spread = people(seed, n, &|k| (k * 3 % 5) as f32 * 0.8);
                let first = spread.iter().map(|p| p.0).fold(f32::INFINITY, f32::min);
                let latest = spread.iter().map(|p| p.1).collect();
                let bound = most_in_time(first, latest, headway);
                let best = most_in_time_by_brute_force(&spread, headway);
                assert!(
                    bound >= best,
                    "seed {seed}, headway {headway}: {bound} < {best}"
                );
                kinder += usize::from(bound > best);
            }
        }
        // Where people come late the bound is kinder than any order.
        assert!(kinder > 0);
    }

    #[test]
    fn all_are_in_soonest_with_the_farthest_to_go_first() {
        /// The soonest the last is in, over every order.
        fn by_brute_force(left: &mut Vec<f32>, k: usize, headway: f32) -> f32 {
            if left.is_empty() {
                return f32::NEG_INFINITY;
            }
            let mut best = f32::INFINITY;
            for i in 0..left.len() {
                let takes = left.remove(i);
                let this = 0.5 + k as f32 * headway + takes;
                best = best.min(this.max(by_brute_force(left, k + 1, headway)));
                left.insert(i, takes);
            }
            best
        }
        for seed in 0..30 {
            let takes: Vec<f32> = (0..1 + seed % 6)
                .map(|k| ((k + seed) * 5 % 7) as f32 * 0.7)
                .collect();
            for headway in [0.4, 0.9, 1.6] {
                assert_eq!(
                    soonest_all_in(0.5, takes.clone(), headway),
                    by_brute_force(&mut takes.clone(), 0, headway),
                    "seed {seed}, headway {headway}"
                );
            }
        }
    }

    #[test]
    fn a_door_taking_turns_is_never_better_than_the_best_order() {
        // What the turn-taking sketch found on the doorway (BENCHMARKS.md,
        // "Crowds"), and never above the bound.
        let door = super::super::scene("doorway", 1).unwrap();
        let bursts = |h, sw, n| door_in_bursts(&door, h, sw, n).unwrap();
        assert_eq!(
            [5, 10, 20, 25].map(|n| bursts(0.86, 1.5, n)),
            [44, 46, 48, 33]
        );
        assert_eq!((1..=30).map(|n| bursts(1.04, 2.0, n)).max(), Some(40));
        assert_eq!(
            [1.0, 4.0, 10.0, 30.0].map(|t| door_by_patience(&door, 0.86, 1.5, t).unwrap()),
            [20, 22, 28, 33]
        );
        for (h, sw) in [(0.86, 1.5), (0.9, 1.5), (1.0, 1.5), (1.04, 2.0)] {
            let best = door_bound(&door, h, sw).unwrap().in_time;
            for n in 1..=30 {
                assert!(bursts(h, sw, n) <= best, "{h} / {sw}, bursts of {n}");
            }
            for t in [1.0, 4.0, 10.0, 30.0] {
                let patient = door_by_patience(&door, h, sw, t).unwrap();
                assert!(patient <= best, "{h} / {sw}, patience {t}");
            }
        }
        assert_eq!(door_in_bursts(&door, 0.86, 1.5, 0), None);
        assert_eq!(door_in_bursts(&door, f32::NAN, 1.5, 5), None);
    }
}
