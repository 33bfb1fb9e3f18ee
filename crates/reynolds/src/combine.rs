//! Combining several behaviors' steering into one force: the model's
//! weighted sum, or by priority, the first group that asks for something.
//! Why the first group above a threshold rather than Buckland's running
//! sum (each group added in turn, truncated to the force left under the
//! cap): a high-priority force that does not use the whole cap leaves the
//! rest to the lower groups, which may spend it pulling straight back into
//! what the first group steers away from, so the agent still leaks through,
//! only more slowly. Taking the first group that asks for something gives an
//! avoiding agent nothing else to do that step.

use crate::math::{SteeringVector, Vector, finite_or_zero, sanitize_weight};
use crate::model::steering;

/// How many priority groups [`PriorityGroups`] keeps: group 0 comes first.
pub const PRIORITY_GROUPS: usize = 4;

/// Steering forces summed by priority group, highest priority (group 0)
/// first, until they are made one force: every group added up
/// ([`PriorityGroups::total`], the model's weighted sum) or the first
/// group that asks for something ([`PriorityGroups::first_above`]).
///
/// ```
/// # use reynolds::{combine::PriorityGroups, math::Vector};
/// let mut groups = PriorityGroups::default();
/// groups.add(0, Vector::new(0.0, 300.0)); // keep out of a wall
/// groups.add(2, Vector::new(0.0, -200.0)); // seek through it
/// groups.add(2, Vector::new(0.0, -200.0)); // and pursue through it
/// // A weighted sum dilutes the wall's force until the agent goes in...
/// assert_eq!(groups.total(), Vector::new(0.0, -100.0));
/// // ...priority does not.
/// assert_eq!(groups.first_above(1.0), Vector::new(0.0, 300.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PriorityGroups<V = Vector> {
    /// Each group's summed force.
    pub groups: [V; PRIORITY_GROUPS],
}

impl<V: SteeringVector> Default for PriorityGroups<V> {
    fn default() -> Self {
        Self {
            groups: [V::ZERO; PRIORITY_GROUPS],
        }
    }
}

impl<V: SteeringVector> PriorityGroups<V> {
    /// Adds `force` to group `group` (0 is the highest priority; a group past
    /// the last counts as the last). A non-finite force adds nothing.
    #[inline]
    pub fn add(&mut self, group: usize, force: V) {
        let group = group.min(PRIORITY_GROUPS - 1);
        self.groups[group] += finite_or_zero(force);
    }

    /// Adds the steering toward `desired` of an agent going `vel`,
    /// `weight * (desired - vel) / response_time` (the model's formula), to
    /// group `group`. A weight that is negative or not finite adds nothing.
    #[inline]
    pub fn add_desired(
        &mut self,
        group: usize,
        weight: f32,
        desired: V,
        vel: V,
        response_time: f32,
    ) {
        let weight = sanitize_weight(weight);
        if weight > 0.0 {
            self.add(group, steering(desired, vel, response_time) * weight);
        }
    }

    /// The sum of every group, in order: the model's weighted sum of
    /// every behavior's steering, priorities ignored. Not yet capped (the
    /// step caps it at the max force).
    #[inline]
    pub fn total(&self) -> V {
        finite_or_zero(self.groups.iter().fold(V::ZERO, |sum, g| sum + *g))
    }

    /// The first group, highest priority first, whose force is longer than
    /// `threshold` (in pixels a second per second); the lower groups are
    /// ignored. If no group is, the [`total`](Self::total) of all (all of it
    /// short). Not yet capped; always finite.
    ///
    /// A threshold that is negative or NaN counts as 0: the first group that
    /// asks for anything at all wins. An infinite one finds no group.
    #[inline]
    pub fn first_above(&self, threshold: f32) -> V {
        // `max` turns NaN into 0.
        let threshold = threshold.max(0.0);
        self.groups
            .iter()
            .find(|g| g.length() > threshold)
            .map_or_else(|| self.total(), |g| finite_or_zero(*g))
    }
}
