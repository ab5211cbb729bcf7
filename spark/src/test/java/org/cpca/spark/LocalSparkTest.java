package org.cpca.spark;

import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * A test class that runs on one local[2] SparkContext, started before its first test and
 * stopped after its last (each test class has its own JVM; see the module's pom).
 */
abstract class LocalSparkTest {

	static JavaSparkContext sc;

	@BeforeAll
	static void startSpark() {
		sc = SparkTesting.context("local[2]");
	}

	@AfterAll
	static void stopSpark() {
		sc.stop();
	}
}
