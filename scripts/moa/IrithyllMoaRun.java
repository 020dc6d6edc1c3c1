// Runs one MOA task given on the command line (as moa.DoTask does, minus
// DoTask's Weka version check: the tasks run here need no Weka) and prints
// its result and the task's CPU seconds.
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import moa.options.ClassOption;
import moa.tasks.AbstractTask;
import moa.tasks.MainTask;

public class IrithyllMoaRun {
  public static void main(String[] args) throws Exception {
    final AbstractTask task =
        (AbstractTask) ClassOption.cliStringToObject(String.join(" ", args), MainTask.class, null);
    task.prepareForUse();
    final ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    final long t0 = bean.getCurrentThreadCpuTime();
    final Object result = task.doTask();
    final double seconds = (bean.getCurrentThreadCpuTime() - t0) / 1e9;
    System.out.println(result);
    System.err.println("task_cpu_seconds " + seconds);
  }
}
