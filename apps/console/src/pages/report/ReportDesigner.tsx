import { Button, Form, Input, Modal, Radio, Select, Space, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useEffect, useState } from "react";
import { DateRangeInput } from "../../crud/DateRangeInput.tsx";
import { useI18n } from "../../i18n/index.tsx";
import type { Catalog, ChartType, Label, MeasureFn, ReportDefinition } from "./report-calls.ts";

/** What the designer opens with: a saved report to edit, one to copy, or nothing (a new one). */
export interface DesignerStart {
  id?: string;
  name: string;
  definition: ReportDefinition;
}

interface Props {
  catalog: Catalog;
  start: DesignerStart | null;
  canSave: boolean;
  onClose: () => void;
  onPreview: (name: string, definition: ReportDefinition) => void;
  onSave: (start: { id?: string; name: string; definition: ReportDefinition }) => Promise<void>;
}

const DAY = "YYYY-MM-DD";

/**
 * 报表设计: a report is chosen, never written. The dataset decides which group keys, measures
 * and filters may be picked (the server checks them again); the date range only for dated data.
 */
export function ReportDesigner({ catalog, start, canSave, onClose, onPreview, onSave }: Props) {
  const { t, language } = useI18n();
  const label = (l: Label) => (language === "en" ? l.en : l.zh);
  const [name, setName] = useState("");
  const [datasetKey, setDatasetKey] = useState("");
  const [groupBy, setGroupBy] = useState<string[]>([]);
  const [measures, setMeasures] = useState<string[]>([]);
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null]>([null, null]);
  const [chart, setChart] = useState<ChartType>("bar");
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!start) return;
    const d = start.definition;
    setName(start.name);
    setDatasetKey(d.dataset);
    setGroupBy(d.groupBy);
    setMeasures(d.measures.map((m) => `${m.column}:${m.fn}`));
    setFilters(Object.fromEntries(d.filters.map((f) => [f.key, f.value])));
    setRange([d.dateFrom ? dayjs(d.dateFrom) : null, d.dateTo ? dayjs(d.dateTo) : null]);
    setChart(d.chart);
    setProblem(null);
  }, [start]);

  const dataset = catalog.datasets.find((d) => d.key === datasetKey);
  const measureOptions = (dataset?.columns ?? []).flatMap((c) =>
    catalog.fns.map((fn) => ({
      value: `${c.key}:${fn}`,
      label: `${label(c.label)} · ${t(`report.fn.${fn}`)}`,
    })),
  );

  const chooseDataset = (key: string) => {
    const next = catalog.datasets.find((d) => d.key === key);
    setDatasetKey(key);
    // Keys the new dataset lacks go; the rest stay chosen.
    setGroupBy((g) => g.filter((k) => next?.groups.some((x) => x.key === k)));
    setMeasures((m) => m.filter((k) => next?.columns.some((c) => k.startsWith(`${c.key}:`))));
    setFilters((f) =>
      Object.fromEntries(Object.entries(f).filter(([k]) => next?.filters.some((x) => x.key === k))),
    );
    if (!next?.dated) setRange([null, null]);
  };

  const definition = (): ReportDefinition | null => {
    if (!name.trim()) {
      setProblem(t("report.nameRequired"));
      return null;
    }
    if (!dataset || measures.length === 0) {
      setProblem(t("report.measuresRequired"));
      return null;
    }
    setProblem(null);
    const [from, to] = range;
    return {
      dataset: dataset.key,
      groupBy,
      measures: measures.map((m) => {
        const [column, fn] = m.split(":") as [string, MeasureFn];
        return { column, fn };
      }),
      filters: Object.entries(filters).map(([key, value]) => ({ key, value })),
      ...(from ? { dateFrom: from.format(DAY) } : {}),
      ...(to ? { dateTo: to.format(DAY) } : {}),
      chart,
    };
  };

  const save = async () => {
    const d = definition();
    if (!d) return;
    setSaving(true);
    try {
      await onSave({ ...(start?.id ? { id: start.id } : {}), name: name.trim(), definition: d });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={start !== null}
      title={t("report.designer")}
      onCancel={onClose}
      width={720}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button
            onClick={() => {
              const d = definition();
              if (d) onPreview(name.trim(), d);
            }}
            data-testid="report-preview"
          >
            {t("report.preview")}
          </Button>
          {canSave ? (
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="report-save">
              {t("report.save")}
            </Button>
          ) : null}
        </Space>
      }
    >
      <Form layout="vertical" data-testid="report-designer">
        <Form.Item label={t("report.name")} htmlFor="report-name" required>
          <Input id="report-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
        </Form.Item>
        <Form.Item label={t("report.dataset")} htmlFor="report-dataset" required>
          <Select
            id="report-dataset"
            value={datasetKey || undefined}
            onChange={chooseDataset}
            options={catalog.datasets.map((d) => ({ value: d.key, label: label(d.label) }))}
            data-testid="report-dataset"
          />
        </Form.Item>
        <Form.Item label={t("report.groupBy")} htmlFor="report-group" extra={t("report.groupByHint")}>
          <Select
            id="report-group"
            mode="multiple"
            value={groupBy}
            maxCount={3}
            onChange={setGroupBy}
            options={(dataset?.groups ?? []).map((g) => ({ value: g.key, label: label(g.label) }))}
            data-testid="report-group"
          />
        </Form.Item>
        <Form.Item label={t("report.measures")} htmlFor="report-measures" required>
          <Select
            id="report-measures"
            mode="multiple"
            value={measures}
            maxCount={6}
            onChange={setMeasures}
            options={measureOptions}
            data-testid="report-measures"
          />
        </Form.Item>
        {dataset?.filters.length ? (
          <Form.Item label={t("report.filters")}>
            <Space wrap>
              {dataset.filters.map((f) => (
                <Select
                  key={f.key}
                  aria-label={label(f.label)}
                  placeholder={label(f.label)}
                  allowClear
                  style={{ minWidth: 160 }}
                  value={filters[f.key]}
                  onChange={(value: string | undefined) =>
                    setFilters((all) => {
                      const { [f.key]: _, ...rest } = all;
                      return value === undefined ? rest : { ...rest, [f.key]: value };
                    })
                  }
                  options={f.values.map((v) => ({
                    value: v.value,
                    label: `${label(f.label)}: ${label(v.label)}`,
                  }))}
                  data-testid={`report-filter-${f.key}`}
                />
              ))}
            </Space>
          </Form.Item>
        ) : null}
        <Form.Item label={`${t("report.dateFrom")} – ${t("report.dateTo")}`} htmlFor="report-range">
          {dataset && !dataset.dated ? (
            <Typography.Text type="secondary">{t("report.noDates")}</Typography.Text>
          ) : (
            <DateRangeInput
              id="report-range"
              showTime={false}
              value={range}
              onChange={setRange}
              startLabel={t("report.dateFrom")}
              endLabel={t("report.dateTo")}
            />
          )}
        </Form.Item>
        <Form.Item label={t("report.chart")}>
          <Radio.Group
            value={chart}
            onChange={(e) => setChart(e.target.value as ChartType)}
            optionType="button"
            options={catalog.charts.map((c) => ({ value: c, label: t(`report.chart.${c}`) }))}
            data-testid="report-chart-type"
          />
        </Form.Item>
        {problem ? (
          <Typography.Text type="danger" role="alert" data-testid="report-problem">
            {problem}
          </Typography.Text>
        ) : null}
      </Form>
    </Modal>
  );
}
