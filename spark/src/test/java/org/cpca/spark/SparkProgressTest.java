package org.cpca.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.cpca.core.ProgressClock;
import org.junit.jupiter.api.Test;

/** Tests the log lines of {@link SparkProgress}, on a fake clock. */
public class SparkProgressTest {

	private static final long S = 1_000_000_000L;

	@Test
	public void testALinePerStageAndTheTimeLeft() {
		final long[] now = { 0 };
		final List<String> lines = new ArrayList<>();
		final SparkProgress p = new SparkProgress(new ProgressClock(() -> now[0]), lines::add);
		p.stage("opening the target t.tif", 0);
		p.stage("opening the target t.tif", 0); // the same stage: no second line
		now[0] = 5 * S;
		p.stage("means and the Gram matrix on 4 partitions", 0);
		now[0] = 65 * S;
		p.stage("α sweep", 0);
		for (int i = 1; i <= 4; i++) {
			now[0] = (65 + 6 * i) * S;
			p.stage("α sweep", 0.2 * i);
		}
		now[0] = 100 * S;
		p.done();
		assertEquals(List.of("[0 s] opening the target t.tif",
			"[5 s] means and the Gram matrix on 4 partitions", "[1 min 5 s] α sweep",
			"α sweep, 40 % (12 s, about 18 s left)", "α sweep, 80 % (24 s, about 6 s left)",
			"done in 1 min 40 s"), lines);
	}
}
