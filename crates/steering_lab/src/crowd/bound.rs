//! How many of a scene's people any crowd method could bring through its
//! door in time, if the door passes one body at a time: a bound to judge
//! the two-way door's bar by (BENCHMARKS.md, "The two-way door against a
//! perfect schedule").
//!
//! The model is kinder than any crowd: each person walks straight at their
//! speed to their way through the door and on to their goal, and loses
//! time only by waiting at the door. The door lets them through one at a
//! time, `headway` seconds apart when two go the same way and `switch`
//! apart when the way changes. Within each way, first come, first through;
//! between the ways, the order that brings the most within three times
//! their straight-line time, found over every interleaving of the two
//! queues.

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
    let positive = |t: f32| t.is_finite() && t > 0.0;
    if !(positive(headway) && positive(switch)) {
        return None;
    }
    let mut ways: [Vec<AtDoor>; 2] = [Vec::new(), Vec::new()];
    for walker in &scene.walkers {
        let Some(door) = walker.via else { continue };
        let side = (door.middle - walker.start).dot(door.across).signum();
        let through = door.way_through(walker.start, door.across * side, walker.radius);
        ways[usize::from(side < 0.0)].push(AtDoor {
            reaches: walker.start.distance(through) / walker.speed,
            then_takes: (through.distance(walker.goal) - ARRIVED).max(0.0) / walker.speed,
            deadline: 3.0 * walker.straight_time(),
        });
    }
    if ways.iter().all(Vec::is_empty) {
        return None;
    }
    for way in &mut ways {
        way.sort_by(|a, b| a.reaches.total_cmp(&b.reaches));
    }
    Some(best_order(&ways, headway, switch))
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
}
