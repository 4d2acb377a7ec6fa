package io.courier.demo;

import java.nio.file.Path;
import java.util.Properties;

import org.apache.log4j.LogManager;
import org.apache.log4j.PropertyConfigurator;

/**
 * Sends all log output of an embedded mini cluster to one file, so that the console shows only what the program
 * prints itself. Hadoop logs through log4j 1 (reload4j); this must run before the first Hadoop class logs.
 * java.util.logging output (Jersey's) is dropped.
 */
final class DemoLogging {
    private DemoLogging() {
    }

    static void toFile(Path logFile) {
        LogManager.resetConfiguration();
        Properties p = new Properties();
        p.setProperty("log4j.rootLogger", "INFO,file");
        p.setProperty("log4j.appender.file", "org.apache.log4j.FileAppender");
        p.setProperty("log4j.appender.file.File", logFile.toAbsolutePath().toString());
        p.setProperty("log4j.appender.file.Append", "false");
        p.setProperty("log4j.appender.file.layout", "org.apache.log4j.PatternLayout");
        p.setProperty("log4j.appender.file.layout.ConversionPattern", "%d{HH:mm:ss,SSS} %-5p [%t] %c{2}: %m%n");
        for (String quiet : new String[] {"org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit",
                "org.apache.hadoop.hdfs.StateChange", "org.apache.hadoop.hdfs.server.blockmanagement",
                "org.apache.hadoop.hdfs.server.datanode", "org.apache.hadoop.ipc", "org.apache.hadoop.metrics2",
                "org.apache.hadoop.yarn.server.resourcemanager.RMAuditLogger",
                "org.apache.hadoop.yarn.server.nodemanager.NMAuditLogger", "org.eclipse.jetty"}) {
            p.setProperty("log4j.logger." + quiet, "WARN");
        }
        PropertyConfigurator.configure(p);
        // Jersey (inside the YARN web apps) logs through java.util.logging straight to stderr: drop it.
        java.util.logging.LogManager.getLogManager().reset();
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.OFF);
    }
}
