#pragma once
// Lee and Rhee's class channel (arXiv 2410.10924; kyungeun-lee/mibenchmark): real images or texts whose MI is known
// exactly. `sources` fair bits name the classes of x's items (bit 0: the first class, bit 1: the second); each bit
// passes through a binary symmetric channel of crossover p to name the class of y's item in the same place; every
// item is drawn uniformly from its class, independently of everything else. The class is a function of the item,
// and x and y are independent given the classes, so I(x; y) = I(bits of x; bits of y) = sources (log 2 - H_b(p))
// nats, exactly, however alike the two classes look. Torch-free.

namespace milab {

// H_b(p) = -p log p - (1 - p) log(1 - p) in nats; 0 at p = 0 and p = 1.
double binaryEntropy(double p);

// The class channel's exact MI in nats.
double classChannelMi(int sources, double crossover);

// The crossover in [0, 0.5] whose channel carries `mi` nats over `sources` bits, for mi in [0, sources log 2]
// (bisection in double: the MI falls monotonically in p on [0, 0.5]).
double crossoverFor(int sources, double mi);

}  // namespace milab
