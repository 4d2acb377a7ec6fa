package io.courier.scheduler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Groups revised by finishing flows, round after round, read exactly like groups built afresh from what is left. */
class PortGroupsTest {

    @Test
    void chainedRemovalsReadLikeFreshGroups() {
        Random random = new Random(11);
        for (int trial = 0; trial < 200; trial++) {
            int hosts = 1 + random.nextInt(12);
            int flows = 1 + random.nextInt(300);
            int[] host = new int[flows];
            for (int f = 0; f < flows; f++) {
                host[f] = random.nextInt(hosts);
            }
            TreeSet<Integer> left = new TreeSet<>();
            for (int f = 0; f < flows; f++) {
                if (random.nextInt(4) > 0) {
                    left.add(f);
                }
            }
            PortGroups groups = PortGroups.of(toArray(left), host, hosts);
            int shift = 0;
            while (!left.isEmpty()) {
                List<Integer> pool = new ArrayList<>(left);
                Collections.shuffle(pool, random);
                int n = 1 + random.nextInt(Math.min(pool.size(), 1 + pool.size() / 3));
                TreeSet<Integer> drop = new TreeSet<>(pool.subList(0, n));
                left.removeAll(drop);
                // The drop list holds indices at the groups' current place; one round in three the coflow moves first.
                if (random.nextInt(3) == 0) {
                    int delta = random.nextInt(5);
                    groups = groups.shifted(delta);
                    shift += delta;
                }
                int[] dropAt = new int[drop.size() + 2];
                int k = 1;
                for (int f : drop) {
                    dropAt[k++] = f + shift;
                }
                int[] hostAt = new int[flows + shift];
                for (int f = 0; f < flows; f++) {
                    hostAt[f + shift] = host[f];
                }
                groups = groups.without(dropAt, 1, 1 + drop.size(), hostAt);
                PortGroups fresh = PortGroups.of(toArray(left), host, hosts);
                for (int h = 0; h < hosts; h++) {
                    assertEquals(fresh.count(h), groups.count(h), "trial " + trial + " host " + h);
                    for (int j = 0; j < fresh.count(h); j++) {
                        assertEquals(fresh.flow(h, j) + shift, groups.flow(h, j), "trial " + trial + " host " + h);
                    }
                }
            }
        }
    }

    @Test
    void droppingAFlowThatIsNotThereFails() {
        int[] host = {0, 1, 0};
        PortGroups groups = PortGroups.of(new int[] {0, 1}, host, 2);
        assertThrows(IllegalStateException.class, () -> groups.without(new int[] {2}, 0, 1, host));
    }

    private static int[] toArray(TreeSet<Integer> set) {
        int[] out = new int[set.size()];
        int k = 0;
        for (int f : set) {
            out[k++] = f;
        }
        return out;
    }
}
