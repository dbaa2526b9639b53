import * as echarts from "echarts/core";
import { type RefObject, useEffect, useRef } from "react";

/**
 * An ECharts instance on the element `host` points at, resized with the element and disposed with
 * the component. Effects declared after this hook see the instance in the returned ref.
 */
export function useEChart(host: RefObject<HTMLDivElement | null>): RefObject<echarts.ECharts | null> {
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
  return chart;
}
