"""The two-way door (`steering-lab crowd --scene doorway`) taking turns.

The model of `steering-lab door-bound` (crates/steering_lab/src/crowd/
bound.rs): each person walks straight at 1.3 m/s to their half of the
door and on to within 0.5 m of their goal, losing time only waiting at
the door, which passes one at a time, `h` seconds after the last going
the same way and `sw` after a switch. Instead of the best order, simple
rules a door could follow: bursts of N one way then the other, or
switching once the other side's front has waited T seconds. Prints how
many of the 50 arrive within three times their straight line
(BENCHMARKS.md, "The two-way door taking turns").
"""
import math

SPEED = 1.3


def people():
    """Each person of the doorway scene, split by way and in the order they
    reach the door: when they reach it (r), how long they need from it (t),
    and their deadline, three times their straight line (d)."""
    ways = [[], []]
    for i in range(5):
        for j in range(5):
            west = (-4 - 1.5 * i, -3 + 1.5 * j)
            east = (-west[0], west[1] + 0.75)
            going = [(west, (-west[0] + 4, west[1]), -0.5), (east, (-east[0] - 4, east[1]), 0.5)]
            for way, (start, goal, lane) in enumerate(going):
                through = (0.0, lane)
                straight = (math.dist(start, (0, 0)) + math.dist((0, 0), goal)) / SPEED
                ways[way].append(dict(
                    r=math.dist(start, through) / SPEED,
                    t=max(math.dist(through, goal) - 0.5, 0) / SPEED,
                    d=3 * straight,
                ))
    for way in ways:
        way.sort(key=lambda p: p['r'])
    return ways


WAYS = people()


def serve(h, sw, switch):
    """How many arrive in time when the door, having just passed someone
    going `last`, switches way whenever `switch(queues, last, free, burst)`
    says so (and when its way's queue is empty)."""
    queues = [list(WAYS[0]), list(WAYS[1])]
    free, last, burst, in_time = -1e9, None, 0, 0
    while queues[0] or queues[1]:
        if last is None:
            way = min((w for w in (0, 1) if queues[w]), key=lambda w: queues[w][0]['r'])
        elif not queues[last]:
            way = 1 - last
        elif queues[1 - last] and switch(queues, last, free, burst):
            way = 1 - last
        else:
            way = last
        person = queues[way].pop(0)
        gap = 0 if last is None else (h if way == last else sw)
        free = max(person['r'], free + gap)
        burst = burst + 1 if way == last else 1
        last = way
        in_time += free + person['t'] <= person['d']
    return in_time


def bursts(n, h, sw):
    """N one way, then the other; early when nobody of this way is at the
    door in time for the next and someone of the other way is."""
    def switch(queues, last, free, burst):
        other_ready = queues[1 - last][0]['r'] <= free + sw
        own_ready = queues[last][0]['r'] <= free + h
        return other_ready and (burst >= n or not own_ready)
    return serve(h, sw, switch)


def patience(t, h, sw):
    """The other way's front goes once it has waited longer than T."""
    def switch(queues, last, free, burst):
        next_through = max(queues[last][0]['r'], free + h)
        return next_through - queues[1 - last][0]['r'] > t
    return serve(h, sw, switch)


print('bursts of N: (N, in time)')
for h in (0.86, 0.9, 1.0, 1.04):
    for sw in (1.5, 2.0, 2.2):
        print(h, sw, [(n, bursts(n, h, sw)) for n in (3, 5, 8, 10, 12, 15, 20, 25)])
print('patience T: (T, in time)')
for h in (0.86, 0.9, 1.0):
    for sw in (1.5, 2.0):
        print(h, sw, [(t, patience(t, h, sw)) for t in (1, 2, 4, 6, 8, 10, 12, 15, 20, 30)])
