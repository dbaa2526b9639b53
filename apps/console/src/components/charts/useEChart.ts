import * as echarts from "echarts/core";
import { type RefObject, useEffect, useRef } from "react";

/**
 * Draws `option` with ECharts on the element `host` points at: the instance is made once, resized
 * with the element, disposed with the component, and redrawn whenever `option` changes (keep it
 * memoised). `drawn` runs after each drawing, to note on the element what the chart holds.
 */
export function useEChart(
  host: RefObject<HTMLDivElement | null>,
  option: echarts.EChartsCoreOption,
  drawn?: (chart: echarts.ECharts, element: HTMLDivElement) => void,
): void {
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const instance = echarts.init(element, undefined, { renderer: "canvas" });
    chart.current = instance;
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(element);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [host]);
  useEffect(() => {
    const instance = chart.current;
    const element = host.current;
    if (!instance || !element) return;
    instance.setOption(option, { notMerge: true });
    drawn?.(instance, element);
  }, [host, option, drawn]);
}
