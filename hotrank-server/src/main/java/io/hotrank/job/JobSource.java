package io.hotrank.job;

import java.util.List;

/** A bean that declares jobs to the {@link JobScheduler}, read once when it is created. */
public interface JobSource {

  List<JobDefinition> jobs();
}
