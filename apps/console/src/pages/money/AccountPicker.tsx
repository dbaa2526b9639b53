import { Empty, Select, Spin } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useI18n } from "../../i18n/index.tsx";
import { type AccountChoice, searchAccounts } from "./money-calls.ts";
import { moneyFilterDef } from "./money-filters.ts";
import { useDictionaryLabel } from "./money-labels.ts";

/** Typing pauses this long before the accounts are searched, so each key press is not a call. */
const DEBOUNCE_MS = 300;

interface Props {
  id?: string;
  value?: string;
  onChange?: (value: string | undefined) => void;
  /** The chosen account when it is not among the choices (opened from a link). */
  known?: AccountChoice;
  /** The whole choice picked, whose tenant the statement's call names. */
  onPick?: (choice: AccountChoice | undefined) => void;
  /** The platform administrator's choices span tenants: each names its tenant. */
  showTenant?: boolean;
}

/**
 * Picks an owner's open account: searching by owner name, phone, room or meter number (the recharge
 * counter's own search), each account shown with its owner, energy, meter number and room.
 */
export function AccountPicker({ id, value, onChange, known, onPick, showTenant = false }: Props) {
  const { t } = useI18n();
  const energy = useDictionaryLabel(moneyFilterDef.fields.energyType);
  const [keyword, setKeyword] = useState("");
  const [choices, setChoices] = useState<AccountChoice[]>([]);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);

  useEffect(() => {
    const call = ++latest.current;
    setLoading(true);
    const timer = setTimeout(() => {
      searchAccounts(keyword)
        .then((found) => call === latest.current && setChoices(found))
        .catch((error: unknown) => {
          // Server failures were toasted by the API bridge; the picker just offers nothing.
          reportNetworkError(error);
          if (call === latest.current) setChoices([]);
        })
        .finally(() => call === latest.current && setLoading(false));
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [keyword]);

  const all = useMemo(
    () => (known && !choices.some((c) => c.id === known.id) ? [known, ...choices] : choices),
    [known, choices],
  );
  const options = useMemo(
    () =>
      all.map((account) => {
        const label = t("statement.accountOption", {
          owner: account.ownerName,
          energy: energy(account.energyType),
          meter: account.productCode,
          room: account.roomName || "-",
        });
        return {
          value: account.id,
          label: showTenant && account.tenantName ? `${label} · ${account.tenantName}` : label,
        };
      }),
    [all, t, energy, showTenant],
  );

  return (
    <Select
      id={id}
      value={value}
      onChange={(picked: string | undefined) => {
        onPick?.(all.find((c) => c.id === picked));
        onChange?.(picked);
      }}
      options={options}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      notFoundContent={loading ? <Spin size="small" /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />}
      loading={loading}
      allowClear
      style={{ width: 420 }}
      data-testid="statement-account"
    />
  );
}
