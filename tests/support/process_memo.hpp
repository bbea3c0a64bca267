// SPDX-License-Identifier: MIT
// A value made once per process for each key, for test inputs that many
// parameterised cases share (quantized weights, f64 references): made on
// first use, kept until the process ends, safe to ask for from any thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace skn_core::test {

template <class Key, class Value>
class ProcessMemo {
public:
    // The value of `key`, made by make() (returning a Value) the first time.
    // The lock covers the map only: a value is made under its own once_flag,
    // so threads making different keys do not wait for each other, and two
    // asking for one key get one value. The reference stays valid for the
    // life of the memo (entries never move or go).
    template <class Make>
    const Value& get(const Key& key, Make&& make) {
        Entry* e = nullptr;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            std::unique_ptr<Entry>& slot = entries_[key];
            if (!slot) slot = std::make_unique<Entry>();
            e = slot.get();
        }
        std::call_once(e->once, [&] { e->value = std::forward<Make>(make)(); });
        return e->value;
    }

private:
    struct Entry {
        std::once_flag once;
        Value value;
    };
    std::mutex mutex_;
    std::map<Key, std::unique_ptr<Entry>> entries_;
};

}  // namespace skn_core::test
