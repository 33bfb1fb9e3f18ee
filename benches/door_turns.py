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
import math,itertools
S=1.3
def ppl():
    ways=[[],[]]
    for i in range(5):
        for j in range(5):
            at=(-4-1.5*i,-3+1.5*j); goal=(-at[0]+4,at[1])
            m=(at[0],at[1]+0.75); g2=(-m[0]-4,m[1])
            for side,(s,g,lat) in enumerate([(at,goal,-0.5),(m,g2,0.5)]):
                th=(0.0,lat)
                straight=(math.dist(s,(0,0))+math.dist((0,0),g))/S
                ways[side].append(dict(r=math.dist(s,th)/S,t=max(math.dist(th,g)-0.5,0)/S,d=3*straight))
    for w in ways: w.sort(key=lambda p:p['r'])
    return ways
W=ppl()
def run(N,h,sw,ready_slack=0.0):
    q=[list(W[0]),list(W[1])]; free=-1e9; last=None; burst=0; ok=0; order=''
    while q[0] or q[1]:
        cand=[w for w in (0,1) if q[w]]
        if last is None: way=min(cand,key=lambda w:q[w][0]['r'])
        else:
            way=last
            other=1-last
            if not q[way]: way=other
            elif q[other]:
                tnext=free+h
                # switch if burst long enough and other is waiting, or own queue not ready and other ready
                other_ready=q[other][0]['r']<=free+sw
                own_ready=q[way][0]['r']<=tnext+ready_slack
                if (burst>=N and other_ready) or (not own_ready and other_ready): way=other
        p=q[way].pop(0)
        gap=0 if last is None else (h if way==last else sw)
        thr=max(p['r'],free+gap); free=thr
        burst=burst+1 if way==last else 1; last=way
        ok+= thr+p['t']<=p['d']; order+='><'[way]
    return ok,order
for h in (0.86,0.9,1.0,1.04):
  for sw in (1.5,2.0,2.2):
    print(h,sw,[ (N,run(N,h,sw)[0]) for N in (3,5,8,10,12,15,20,25)])

def patience(T,h,sw):
    q=[list(W[0]),list(W[1])]; free=-1e9; last=None; ok=0; order=''
    while q[0] or q[1]:
        cand=[w for w in (0,1) if q[w]]
        if last is None: way=min(cand,key=lambda w:q[w][0]['r'])
        else:
            way=last; other=1-last
            if not q[way]: way=other
            elif q[other]:
                tnext=max(q[way][0]['r'],free+h)
                waited=tnext-q[other][0]['r']
                if waited>T: way=other
        p=q[way].pop(0)
        gap=0 if last is None else (h if way==last else sw)
        thr=max(p['r'],free+gap); free=thr; last=way
        ok+= thr+p['t']<=p['d']; order+='><'[way]
    return ok,order
print('patience')
for h in (0.86,0.9,1.0):
  for sw in (1.5,2.0):
    print(h,sw,[(T,patience(T,h,sw)[0]) for T in (1,2,4,6,8,10,12,15,20,30)])

